//! FastNoise2's C API (`FastNoise_C.h`, v1.x), loaded at run time from a shared library the
//! user built: nothing of FastNoise2 is compiled into gpu-noise. Nodes are made by their
//! metadata names ("Perlin", "FractalFBm", ...) and their members set by the names its node
//! editor shows ("Feature Scale", "Octaves", ...), so a misspelt name is an error, not a
//! silently different tree.

use std::ffi::{CStr, c_char, c_int, c_uint, c_void};
use std::path::Path;

use libloading::Library;

/// FastSIMD's feature sets, as `FastSIMD::FeatureSet` numbers them (FeatureEnums.h: each one
/// the flags of the one below it plus its own).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FeatureSet {
    Avx2,
    Avx512,
}

impl FeatureSet {
    fn number(self) -> c_uint {
        match self {
            FeatureSet::Avx2 => 1022,
            FeatureSet::Avx512 => 16382,
        }
    }

    pub fn name(number: c_uint) -> &'static str {
        match number {
            1022 => "AVX2",
            16382 => "AVX-512",
            14 => "SSE2",
            126 => "SSE4.1",
            _ => "another feature set",
        }
    }
}

type NewFromMetadata = unsafe extern "C" fn(c_int, c_uint) -> *mut c_void;
type Delete = unsafe extern "C" fn(*mut c_void);
type ActiveFeatureSet = unsafe extern "C" fn(*const c_void) -> c_uint;
type Count = unsafe extern "C" fn() -> c_int;
type Name = unsafe extern "C" fn(c_int) -> *const c_char;
type MemberCount = unsafe extern "C" fn(c_int) -> c_int;
type MemberName = unsafe extern "C" fn(c_int, c_int) -> *const c_char;
type MemberDimension = unsafe extern "C" fn(c_int, c_int) -> c_int;
type EnumName = unsafe extern "C" fn(c_int, c_int, c_int) -> *const c_char;
type EnumCount = unsafe extern "C" fn(c_int, c_int) -> c_int;
type SetFloat = unsafe extern "C" fn(*mut c_void, c_int, f32) -> bool;
type SetInt = unsafe extern "C" fn(*mut c_void, c_int, c_int) -> bool;
type SetLookup = unsafe extern "C" fn(*mut c_void, c_int, *const c_void) -> bool;
type Grid2 = unsafe extern "C" fn(
    *const c_void,
    *mut f32,
    f32,
    f32,
    c_int,
    c_int,
    f32,
    f32,
    c_int,
    *mut f32,
);
type Grid3 = unsafe extern "C" fn(
    *const c_void,
    *mut f32,
    f32,
    f32,
    f32,
    c_int,
    c_int,
    c_int,
    f32,
    f32,
    f32,
    c_int,
    *mut f32,
);

/// The functions the bench calls, resolved once.
struct Functions {
    new_from_metadata: NewFromMetadata,
    delete: Delete,
    active_feature_set: ActiveFeatureSet,
    metadata_count: Count,
    metadata_name: Name,
    variable_count: MemberCount,
    variable_name: MemberName,
    variable_dimension: MemberDimension,
    enum_count: EnumCount,
    enum_name: EnumName,
    lookup_count: MemberCount,
    lookup_name: MemberName,
    hybrid_count: MemberCount,
    hybrid_name: MemberName,
    set_float: SetFloat,
    set_int_enum: SetInt,
    set_lookup: SetLookup,
    set_hybrid_lookup: SetLookup,
    set_hybrid_float: SetFloat,
    grid2: Grid2,
    grid3: Grid3,
}

/// A loaded FastNoise2 library.
pub struct FastNoise2 {
    f: Functions,
    /// Keeps the functions above valid.
    _library: Library,
}

impl FastNoise2 {
    /// Loads `libFastNoise.so` (or `.dylib`/`.dll`) built with `-DBUILD_SHARED_LIBS=ON`.
    pub fn load(path: &Path) -> Result<FastNoise2, String> {
        // SAFETY: loading runs the library's initialisers; FastNoise2's only register its
        // node metadata.
        let library = unsafe { Library::new(path) }
            .map_err(|e| format!("cannot load {}: {e}", path.display()))?;
        macro_rules! get {
            ($name:literal) => {
                // SAFETY: the types above are FastNoise_C.h's declarations of these names.
                *unsafe { library.get($name) }.map_err(|e| {
                    format!(
                        "{} has no {} (FastNoise2's C API, v1.x): {e}",
                        path.display(),
                        String::from_utf8_lossy(&$name[..$name.len() - 1])
                    )
                })?
            };
        }
        let f = Functions {
            new_from_metadata: get!(b"fnNewFromMetadata\0"),
            delete: get!(b"fnDeleteNodeRef\0"),
            active_feature_set: get!(b"fnGetActiveFeatureSet\0"),
            metadata_count: get!(b"fnGetMetadataCount\0"),
            metadata_name: get!(b"fnGetMetadataName\0"),
            variable_count: get!(b"fnGetMetadataVariableCount\0"),
            variable_name: get!(b"fnGetMetadataVariableName\0"),
            variable_dimension: get!(b"fnGetMetadataVariableDimensionIdx\0"),
            enum_count: get!(b"fnGetMetadataEnumCount\0"),
            enum_name: get!(b"fnGetMetadataEnumName\0"),
            lookup_count: get!(b"fnGetMetadataNodeLookupCount\0"),
            lookup_name: get!(b"fnGetMetadataNodeLookupName\0"),
            hybrid_count: get!(b"fnGetMetadataHybridCount\0"),
            hybrid_name: get!(b"fnGetMetadataHybridName\0"),
            set_float: get!(b"fnSetVariableFloat\0"),
            set_int_enum: get!(b"fnSetVariableIntEnum\0"),
            set_lookup: get!(b"fnSetNodeLookup\0"),
            set_hybrid_lookup: get!(b"fnSetHybridNodeLookup\0"),
            set_hybrid_float: get!(b"fnSetHybridFloat\0"),
            grid2: get!(b"fnGenUniformGrid2D\0"),
            grid3: get!(b"fnGenUniformGrid3D\0"),
        };
        Ok(FastNoise2 {
            f,
            _library: library,
        })
    }

    /// A new node of the type FastNoise2 names `name`, on at most `features`.
    pub fn node(&self, name: &str, features: FeatureSet) -> Result<Node<'_>, String> {
        // SAFETY: plain metadata queries with in-range indices.
        let count = unsafe { (self.f.metadata_count)() };
        let id = (0..count)
            // SAFETY: `i` is below the library's own count of node types.
            .find(|&i| text(unsafe { (self.f.metadata_name)(i) }) == name)
            .ok_or_else(|| format!("FastNoise2 has no node type {name:?}"))?;
        // SAFETY: `id` is a metadata id from the loop above.
        let ptr = unsafe { (self.f.new_from_metadata)(id, features.number()) };
        if ptr.is_null() {
            return Err(format!("FastNoise2 made no {name} node for {features:?}"));
        }
        Ok(Node {
            api: self,
            ptr,
            id,
            name: name.to_string(),
        })
    }
}

/// A C string from FastNoise2 (its metadata names live as long as the library).
fn text(p: *const c_char) -> String {
    if p.is_null() {
        return String::new();
    }
    // SAFETY: FastNoise2 returns NUL-terminated names or null.
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

/// The three sorts of a node's members in FastNoise2's metadata.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Members {
    Variables,
    Lookups,
    Hybrids,
}

/// One node (a counted reference; a parent that looks it up keeps its own).
pub struct Node<'a> {
    api: &'a FastNoise2,
    ptr: *mut c_void,
    id: c_int,
    name: String,
}

// SAFETY: FastNoise2's generators are const while generating (its docs: one node may generate
// on many threads at once); the bench only sets members before it shares a node.
unsafe impl Sync for Node<'_> {}

impl Node<'_> {
    /// The index of `member` among this node's members of one sort (variables: the ones
    /// that are not per dimension).
    fn find(&self, sort: Members, member: &str) -> Result<c_int, String> {
        let f = &self.api.f;
        let (count, name) = match sort {
            Members::Variables => (f.variable_count, f.variable_name),
            Members::Lookups => (f.lookup_count, f.lookup_name),
            Members::Hybrids => (f.hybrid_count, f.hybrid_name),
        };
        let whole = |i| {
            // SAFETY: `i` is below this node type's count of variables (the loop below).
            sort != Members::Variables || unsafe { (f.variable_dimension)(self.id, i) } < 0
        };
        // SAFETY: `self.id` is a node type's metadata id (from `Api::node`).
        let n = unsafe { count(self.id) };
        (0..n)
            // SAFETY: `i` is below the member count just read.
            .find(|&i| text(unsafe { name(self.id, i) }) == member && whole(i))
            .ok_or_else(|| format!("FastNoise2's {} has no {member:?}", self.name))
    }

    fn checked(&self, ok: bool, member: &str) -> Result<&Self, String> {
        if ok {
            Ok(self)
        } else {
            Err(format!("FastNoise2's {} refused {member:?}", self.name))
        }
    }

    /// Sets the float variable `member`.
    pub fn float(&self, member: &str, value: f32) -> Result<&Self, String> {
        let f = &self.api.f;
        let i = self.find(Members::Variables, member)?;
        // SAFETY: `i` indexes one of this node's variables.
        self.checked(unsafe { (f.set_float)(self.ptr, i, value) }, member)
    }

    /// Sets the integer variable `member`.
    pub fn int(&self, member: &str, value: i32) -> Result<&Self, String> {
        let f = &self.api.f;
        let i = self.find(Members::Variables, member)?;
        // SAFETY: as above.
        self.checked(unsafe { (f.set_int_enum)(self.ptr, i, value) }, member)
    }

    /// Sets the enum variable `member` to the option FastNoise2 names `option`.
    pub fn option(&self, member: &str, option: &str) -> Result<&Self, String> {
        let f = &self.api.f;
        let i = self.find(Members::Variables, member)?;
        // SAFETY: enum queries on one of this node's variables.
        let n = unsafe { (f.enum_count)(self.id, i) };
        let value = (0..n)
            // SAFETY: `e` is below the enum's count just read.
            .find(|&e| text(unsafe { (f.enum_name)(self.id, i, e) }) == option)
            .ok_or_else(|| format!("FastNoise2's {}.{member} has no {option:?}", self.name))?;
        // SAFETY: `value` is one of the enum's options, on a live node.
        self.checked(unsafe { (f.set_int_enum)(self.ptr, i, value) }, member)
    }

    /// Makes `source` the input `member` (a node lookup, or a hybrid member given a node).
    pub fn input(&self, member: &str, source: &Node) -> Result<&Self, String> {
        let f = &self.api.f;
        let ok = match self.find(Members::Lookups, member) {
            // SAFETY: both pointers are live nodes of this library; the parent keeps a
            // reference, and `i` indexes one of its lookups.
            Ok(i) => unsafe { (f.set_lookup)(self.ptr, i, source.ptr) },
            Err(_) => {
                let i = self.find(Members::Hybrids, member)?;
                // SAFETY: as above, `i` indexing one of its hybrid members.
                unsafe { (f.set_hybrid_lookup)(self.ptr, i, source.ptr) }
            }
        };
        self.checked(ok, member)
    }

    /// Sets the hybrid member `member` (a float or a node) to a float.
    pub fn hybrid(&self, member: &str, value: f32) -> Result<&Self, String> {
        let f = &self.api.f;
        let i = self.find(Members::Hybrids, member)?;
        // SAFETY: `i` indexes one of this node's hybrid members.
        self.checked(unsafe { (f.set_hybrid_float)(self.ptr, i, value) }, member)
    }

    /// The feature set FastNoise2 runs this node on (`fnGetActiveFeatureSet`).
    pub fn active_feature_set(&self) -> &'static str {
        // SAFETY: a live node.
        FeatureSet::name(unsafe { (self.api.f.active_feature_set)(self.ptr) })
    }

    /// Rows `y0..y0 + rows` of a `width`-wide grid with step 1 (2D, or the z = 0 slice of 3D),
    /// into `out`.
    pub fn rows(&self, dims: u32, out: &mut [f32], width: usize, y0: usize, seed: i32) {
        let rows = out.len() / width;
        let (w, h) = (width as c_int, rows as c_int);
        let f = &self.api.f;
        // SAFETY: `out` holds `width x rows` floats, as FastNoise2 writes; min/max not wanted.
        unsafe {
            if dims == 3 {
                (f.grid3)(
                    self.ptr,
                    out.as_mut_ptr(),
                    0.0,
                    y0 as f32,
                    0.0,
                    w,
                    h,
                    1,
                    1.0,
                    1.0,
                    1.0,
                    seed,
                    std::ptr::null_mut(),
                );
            } else {
                let p = out.as_mut_ptr();
                (f.grid2)(
                    self.ptr,
                    p,
                    0.0,
                    y0 as f32,
                    w,
                    h,
                    1.0,
                    1.0,
                    seed,
                    std::ptr::null_mut(),
                );
            }
        }
    }
}

impl Drop for Node<'_> {
    fn drop(&mut self) {
        // SAFETY: this handle's own reference, released once.
        unsafe { (self.api.f.delete)(self.ptr) }
    }
}
