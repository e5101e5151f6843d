//! The composites of the kinds' own parameters, made from one list ([`own_params!`], invoked
//! in `kinds/mod.rs`): each family with parameters of its own keeps them in its folder's
//! `params.rs`, in three forms (as given, derived in f64, and the GPU's f32 state), and the
//! list puts one of each in [`KindFields`](super::KindFields) (what a spec holds),
//! [`KindParams`](super::KindParams) (what the twin reads) and
//! [`KindState`](super::KindState) (what the GPU and the SIMD lanes read, with its WGSL struct
//! generated from the same list). A new family with parameters is its `params.rs` and one line.

/// Declares the composites from `family: Fields, Params, State;` lines, where `family` is the
/// folder (`kinds/<family>/params.rs` defines the three types, `FIELDS` and, in the family's
/// WGSL, `struct <State>`).
macro_rules! own_params {
    ($($family:ident: $fields:ident, $params:ident, $state:ident;)+) => {
        /// The families' own parameter types as given (what a spec's
        /// [`kind_fields`](crate::NoiseSpec::kind_fields) holds), one per family.
        pub mod own_fields {
            $(pub use super::$family::params::$fields;)+
        }

        /// What each family derives from its fields: in f64 for the twin, and its GPU state.
        pub mod own_derived {
            $(pub use super::$family::params::{$params, $state};)+
        }

        use own_derived::*;
        use own_fields::*;

        /// Every kind's own parameters beyond frequency, seed and interpolation, one set per
        /// family that has them (the rows of each kind's table entry, `KindInfo::params`). A
        /// spec carries all of them; a kind reads only its own, and validation refuses another
        /// kind's (CONVENTIONS §13).
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct KindFields {
            $(
                #[doc = concat!("The `", stringify!($family), "` kinds' own parameters.")]
                pub $family: $fields,
            )+
        }

        impl KindFields {
            /// Every field at `kind`'s default (a default may depend on the kind: the
            /// impulse kinds' density).
            pub fn defaults(kind: Kind) -> Self {
                Self { $($family: $fields::defaults(kind),)+ }
            }
        }

        /// What the kinds derive once, in f64, for every backend, from their own parameters
        /// (CONVENTIONS §9-§11); the GPU and the SIMD lanes receive these numbers rounded to
        /// f32 ([`KindState`]).
        #[derive(Clone, Debug, PartialEq)]
        pub struct KindParams {
            $(
                #[doc = concat!("What the `", stringify!($family), "` kinds derive.")]
                pub $family: $params,
            )+
        }

        impl KindParams {
            /// What `kind` in `dims` dimensions derives from its (valid) fields.
            pub fn new(kind: Kind, dims: u32, fields: &KindFields) -> Self {
                Self { $($family: $params::new(kind, dims, &fields.$family),)+ }
            }
        }

        $crate::layout::host_struct! {
            /// The kind parameters as the GPU reads them (`struct KindState`, generated into
            /// the WGSL from the same list): each family's state.
            #[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
            pub struct KindState as "KindState" {
                $(
                    #[doc = concat!("The `", stringify!($family), "` kinds' state.")]
                    pub $family: $state,
                )+
            }
        }

        impl Default for KindState {
            fn default() -> Self {
                bytemuck::Zeroable::zeroed()
            }
        }

        impl KindState {
            /// The GPU's view of `params`.
            pub fn new(params: &KindParams) -> Self {
                Self { $($family: $state::new(&params.$family),)+ }
            }

            /// Each family's state as its WGSL struct must lay it out: (struct name, field
            /// offsets, size), for the layout test to hold against naga.
            pub fn family_layouts() -> Vec<(&'static str, Vec<(&'static str, usize)>, usize)> {
                use $crate::layout::HostLayout;
                vec![$((
                    $state::WGSL_NAME,
                    $state::field_offsets(),
                    std::mem::size_of::<$state>(),
                )),+]
            }
        }

        /// Every family's parameter rows, in list order.
        pub(crate) static FIELD_LISTS: &[&[KindField]] = &[$($family::params::FIELDS),+];

        /// The families' WGSL accessors of single fields of their state (see
        /// [`WgslAccessor`](super::own::WgslAccessor)), reading the state at `state` (the
        /// single-kind kernels' `noise_state.kind`, a graph's `graph_state.kinds[lat.kind]`).
        pub(crate) fn kind_accessors_wgsl(state: &str) -> String {
            let mut out = String::new();
            for family in [$($family::params::WGSL_ACCESSORS),+] {
                for a in family {
                    out.push_str(&a.wgsl(state));
                }
            }
            out
        }

        /// `struct KindState` in WGSL: one member per family, of its state's struct.
        pub(crate) fn kind_state_wgsl() -> String {
            let mut out = String::from(
                "// The kinds' own parameters (mirrors KindState, generated from its list).\n\
                 struct KindState {\n",
            );
            $(out.push_str(concat!(
                "    ", stringify!($family), ": ", stringify!($state), ",\n"
            ));)+
            out.push_str("}\n");
            out
        }
    };
}
pub(super) use own_params;

/// A WGSL function that reads one field of a family's state where a copy of the whole state
/// would cost more than the work around it (cellular's jitter per feature point, one Poisson
/// threshold per impulse count). Generated once for the single-kind kernels and once for
/// graphs, which keep the state in different places.
pub(crate) struct WgslAccessor {
    /// The function's name and parameters after `fn`: `kind_jitter(lat: Lattice)`.
    pub signature: &'static str,
    /// Its return type.
    pub returns: &'static str,
    /// The expression read below the kind state: `cellular.jitter`.
    pub member: &'static str,
}

impl WgslAccessor {
    /// The function, reading the kind state at `state`.
    pub(crate) fn wgsl(&self, state: &str) -> String {
        format!(
            "fn {} -> {} {{\n    return {state}.{};\n}}\n",
            self.signature, self.returns, self.member
        )
    }
}
