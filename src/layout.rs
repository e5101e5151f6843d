//! Host structs that go to the GPU: `#[repr(C)]`, `Pod`, and a field list derived from the
//! declaration itself ([`host_struct!`]), which `tests/suite/layout.rs` holds against naga's
//! layout of the WGSL struct of the same name (field names, offsets and size).

/// A `#[repr(C)]` struct the GPU reads, with its fields as declared.
pub trait HostLayout: bytemuck::Pod {
    /// The WGSL struct it mirrors (unprefixed, as `shaders/` writes it).
    const WGSL_NAME: &'static str;

    /// Field names in declaration order with their offsets. Padding fields start with `_`;
    /// the layout test compares the others and the size, which fixes the padding too.
    fn field_offsets() -> Vec<(&'static str, usize)>;
}

/// Declares a `#[repr(C)]` host struct and derives its [`HostLayout`] from the same field
/// list, so the names and offsets the layout test checks are never written out by hand.
macro_rules! host_struct {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident as $wgsl:literal {
            $($(#[$field_meta:meta])* $field_vis:vis $field:ident : $ty:ty),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[repr(C)]
        $vis struct $name {
            $($(#[$field_meta])* $field_vis $field: $ty),*
        }

        impl $crate::layout::HostLayout for $name {
            const WGSL_NAME: &'static str = $wgsl;

            fn field_offsets() -> Vec<(&'static str, usize)> {
                vec![$((stringify!($field), std::mem::offset_of!($name, $field))),*]
            }
        }
    };
}
pub(crate) use host_struct;
