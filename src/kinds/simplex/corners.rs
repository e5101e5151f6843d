//! The simplex around each lane's point, in f32 over [`Wide`] (simplex2_corners..
//! simplex4_corners of simplex.wgsl): the corner order from the fractions, each corner's
//! offset and gradient, its hash from the hash lattices' vectors or the permutation table lane
//! by lane ([`CornerHash`]). `lanes.rs` sums them, with or without the gradient.

use crate::kinds::lattice::lane_hash::{LaneLattice as Lattice, simplex_hash};
use crate::kinds::lattice::lanes::{LANES, Points};
pub use crate::kinds::lattice::wide::hash::Step;
use crate::kinds::lattice::wide::hash::{WideLattice, cell_products, corner_hash};
use crate::kinds::lattice::wide::{Wide, unrolled};
use crate::tables::{G2, G4};

const SIMPLEX_G2: f32 = G2 as f32;
const SIMPLEX_G4: f32 = G4 as f32;

/// `SIMPLEX_GRAD3[h % 12]` as simplex.wgsl computes it: signs from bits 0 and 1, the zero
/// component from `g / 4` (a test checks it against the table).
#[inline(always)]
pub const fn simplex_grad3(h: u32) -> [f32; 4] {
    let g = h % 12;
    let a = if g & 1 == 0 { 1.0 } else { -1.0 };
    let b = if g & 2 == 0 { 1.0 } else { -1.0 };
    match g >> 2 {
        0 => [a, b, 0.0, 0.0],
        1 => [a, 0.0, b, 0.0],
        _ => [0.0, a, b, 0.0],
    }
}

/// `SIMPLEX_GRAD4[h % 32]` as simplex.wgsl computes it: the zero at index `g / 8`, the others
/// -1 where bits 2, 1, 0 are set.
#[inline(always)]
pub const fn simplex_grad4(h: u32) -> [f32; 4] {
    let g = h % 32;
    let s2 = if (g >> 2) & 1 == 0 { 1.0 } else { -1.0 };
    let s1 = if (g >> 1) & 1 == 0 { 1.0 } else { -1.0 };
    let s0 = if g & 1 == 0 { 1.0 } else { -1.0 };
    match g >> 3 {
        0 => [0.0, s2, s1, s0],
        1 => [s2, 0.0, s1, s0],
        2 => [s2, s1, 0.0, s0],
        _ => [s2, s1, s0, 0.0],
    }
}

/// Component `c` of `simplex_grad3` at every residue 0..12 (the rest unused).
const fn grad3_table(c: usize) -> [f32; 16] {
    let mut t = [0.0; 16];
    let mut g = 0;
    while g < 12 {
        t[g] = simplex_grad3(g as u32)[c];
        g += 1;
    }
    t
}

/// Component `c` of `simplex_grad4` at every residue 0..32.
const fn grad4_table(c: usize) -> [f32; 32] {
    let mut t = [0.0; 32];
    let mut g = 0;
    while g < 32 {
        t[g] = simplex_grad4(g as u32)[c];
        g += 1;
    }
    t
}

const GRAD3: [[f32; 16]; 3] = [grad3_table(0), grad3_table(1), grad3_table(2)];
const GRAD4: [[f32; 32]; 4] = [
    grad4_table(0),
    grad4_table(1),
    grad4_table(2),
    grad4_table(3),
];

/// Where a simplex's corner hashes come from: the hash of corner `cells + step` per lane
/// (`simplex_hash` of the lanes), each step 0 or 1 per axis.
pub trait CornerHash<W: Wide> {
    fn hash<const D: usize>(&self, s: W, step: [Step<W::M>; 4]) -> W::U;
}

/// The hash lattices' corners, hashed in vectors from the lanes' cells: each axis's cell
/// multiplied once ([`cell_products`]), a corner's step added to the products.
pub struct VectorHash<W: Wide> {
    lat: WideLattice,
    products: [W::U; 4],
}

impl<W: Wide> VectorHash<W> {
    /// The corners around the lanes' `cells` (their first D axes).
    #[inline(always)]
    pub fn new<const D: usize>(s: W, lat: WideLattice, cells: [W::U; 4]) -> Self {
        VectorHash {
            lat,
            products: cell_products::<W, D>(s, lat, cells),
        }
    }

    /// The same corners under another seed: the cells' products do not depend on it.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub fn reseeded(&self, hash_seed: u32) -> Self {
        VectorHash {
            lat: WideLattice {
                hash_seed,
                ..self.lat
            },
            products: self.products,
        }
    }
}

impl<W: Wide> CornerHash<W> for VectorHash<W> {
    #[inline(always)]
    fn hash<const D: usize>(&self, s: W, step: [Step<W::M>; 4]) -> W::U {
        corner_hash::<W, D>(s, self.lat, &self.products, step)
    }
}

/// The permutation table's corners, lane by lane (each its own chain of table reads).
pub struct TableHash<'a> {
    pub lat: &'a Lattice<'a>,
    pub p: &'a Points,
}

impl<W: Wide> CornerHash<W> for TableHash<'_> {
    #[inline(always)]
    fn hash<const D: usize>(&self, s: W, step: [Step<W::M>; 4]) -> W::U {
        let mut steps = [[0u32; LANES]; 4];
        unrolled!(a in [0, 1, 2, 3] {
            if a < D {
                let step = step[a].pick(s.splat_u(0), s.splat_u(1), |m, t, f| s.select_u(m, t, f));
                s.store_u(&mut steps[a], step);
            }
        });
        let mut h = [0u32; LANES];
        for l in 0..LANES {
            let cells = std::array::from_fn(|a| self.p.axis[a].cell[l]);
            let step = std::array::from_fn(|a| steps[a][l]);
            h[l] = simplex_hash(self.lat, cells, step, D);
        }
        s.load_u(&h)
    }
}

/// The N corners of the simplex holding each lane's point (SimplexCorners): each corner's
/// offset d and gradient g on the first D axes, the kernel's radius squared and the scale.
pub struct SimplexCorners<W: Wide, const D: usize, const N: usize> {
    pub d: [[W::F; D]; N],
    pub g: [[W::F; D]; N],
    pub r2: f32,
    pub scale: f32,
}

/// The simplex's corners before their hashes: what does not depend on the lattice's seed
/// (each corner's offset d and its step from the lanes' cells, per axis), so noises at the
/// same points under other seeds share it.
pub struct SimplexShape<W: Wide, const D: usize, const N: usize> {
    pub d: [[W::F; D]; N],
    pub steps: [[Step<W::M>; 4]; N],
    pub r2: f32,
    pub scale: f32,
}

impl<W: Wide, const D: usize, const N: usize> SimplexShape<W, D, N> {
    /// Each corner's gradient from its hash (`simplex_grad3` of the hash modulo 12 in 2D and
    /// 3D, `simplex_grad4` modulo 32 in 4D).
    #[inline(always)]
    pub fn gradients<H: CornerHash<W>>(&self, s: W, hash: &H) -> [[W::F; D]; N] {
        let mut g = [[s.splat(0.0); D]; N];
        unrolled!(m in [0, 1, 2, 3, 4] {
            if m < N {
                let h = hash.hash::<D>(s, self.steps[m]);
                if D == 4 {
                    unrolled!(a in [0, 1, 2, 3] {
                        if a < D {
                            g[m][a] = s.lookup32(h, &GRAD4[a]);
                        }
                    });
                } else {
                    let r = s.mod12_u(h);
                    unrolled!(a in [0, 1, 2] {
                        if a < D {
                            g[m][a] = s.permute16(r, s.load(&GRAD3[a]));
                        }
                    });
                }
            }
        });
        g
    }

    /// The corners with their gradients from `hash`.
    #[inline(always)]
    pub fn corners<H: CornerHash<W>>(self, s: W, hash: &H) -> SimplexCorners<W, D, N> {
        SimplexCorners {
            g: self.gradients(s, hash),
            d: self.d,
            r2: self.r2,
            scale: self.scale,
        }
    }
}

/// 0 or 1 per lane from a mask.
#[inline(always)]
fn step_of<W: Wide>(s: W, m: W::M) -> W::U {
    s.select_u(m, s.splat_u(1), s.splat_u(0))
}

/// `d - step` per lane: `d - 1` where the step is 1, else `d` itself (which is `d - 0`, bit
/// for bit, a zero's sign included).
#[inline(always)]
fn minus_step<W: Wide>(s: W, d: W::F, step: Step<W::M>) -> W::F {
    step.pick(d, s.sub(d, s.splat(1.0)), |m, t, f| s.select(m, t, f))
}

/// The 2D simplex's corners (simplex2_corners).
#[inline(always)]
pub fn simplex2_corners<W: Wide, H: CornerHash<W>>(
    s: W,
    hash: &H,
    f: [W::F; 4],
) -> SimplexCorners<W, 2, 3> {
    simplex2_shape(s, f).corners(s, hash)
}

/// The 2D simplex's shape: the middle corner steps along x where u > v.
#[inline(always)]
pub fn simplex2_shape<W: Wide>(s: W, f: [W::F; 4]) -> SimplexShape<W, 2, 3> {
    let (u, v) = (f[0], f[1]);
    let t = s.mul(s.add(u, v), s.splat(SIMPLEX_G2));
    let (x0, y0) = (s.sub(u, t), s.sub(v, t));
    let along_x = s.lt(v, u);
    let (i1, j1) = (Step::Where(along_x), Step::Unless(along_x));
    let (g2, g2_2, one) = (s.splat(SIMPLEX_G2), s.splat(2.0 * SIMPLEX_G2), s.splat(1.0));
    let d = [
        [x0, y0],
        [
            s.add(minus_step(s, x0, i1), g2),
            s.add(minus_step(s, y0, j1), g2),
        ],
        [s.add(s.sub(x0, one), g2_2), s.add(s.sub(y0, one), g2_2)],
    ];
    let steps = [
        [Step::Zero; 4],
        [i1, j1, Step::Zero, Step::Zero],
        [Step::One, Step::One, Step::Zero, Step::Zero],
    ];
    SimplexShape {
        d,
        steps,
        r2: 0.5,
        scale: 70.0,
    }
}

/// The second and third corners of the 3D simplex (simplex3_order), as the boolean algebra
/// of simplex.wgsl term for term: `xy` is x >= y, `yz` y >= z, `xz` x >= z.
/// (Helpers, not closures: a closure left uninlined runs its vector operations as calls.)
#[inline(always)]
fn simplex3_order<W: Wide>(s: W, xy: W::M, yz: W::M, xz: W::M) -> ([W::M; 3], [W::M; 3]) {
    let (nxy, nyz, nxz) = (not(s, xy), not(s, yz), not(s, xz));
    let c1 = [
        s.and_m(xy, s.or_m(yz, xz)),
        s.and_m(nxy, yz),
        s.or_m(s.and_m(s.and_m(xy, nyz), nxz), s.and_m(nxy, nyz)),
    ];
    let c2 = [
        s.or_m(xy, s.and_m(yz, xz)),
        s.or_m(s.and_m(xy, yz), nxy),
        s.or_m(s.and_m(xy, nyz), s.and_m(nxy, s.or_m(nyz, nxz))),
    ];
    (c1, c2)
}

/// The lanes not in `m`.
#[inline(always)]
fn not<W: Wide>(s: W, m: W::M) -> W::M {
    s.and_not_m(s.eq_u(s.splat_u(0), s.splat_u(0)), m)
}

/// Lanes where `a >= b`: not `a < b` (the fractions are never NaN).
#[inline(always)]
fn at_least<W: Wide>(s: W, a: W::F, b: W::F) -> W::M {
    not(s, s.lt(a, b))
}

/// The 3D simplex's corners (simplex3_corners).
#[inline(always)]
pub fn simplex3_corners<W: Wide, H: CornerHash<W>>(
    s: W,
    hash: &H,
    f: [W::F; 4],
) -> SimplexCorners<W, 3, 4> {
    simplex3_shape(s, f).corners(s, hash)
}

/// The 3D simplex's shape: its middle corners from simplex3_order.
#[inline(always)]
pub fn simplex3_shape<W: Wide>(s: W, f: [W::F; 4]) -> SimplexShape<W, 3, 4> {
    let t = s.div(s.add(s.add(f[0], f[1]), f[2]), s.splat(6.0));
    let d0 = [s.sub(f[0], t), s.sub(f[1], t), s.sub(f[2], t)];
    let (c1, c2) = simplex3_order(
        s,
        at_least(s, f[0], f[1]),
        at_least(s, f[1], f[2]),
        at_least(s, f[0], f[2]),
    );
    let steps = [
        [Step::Zero; 4],
        [
            Step::Where(c1[0]),
            Step::Where(c1[1]),
            Step::Where(c1[2]),
            Step::Zero,
        ],
        [
            Step::Where(c2[0]),
            Step::Where(c2[1]),
            Step::Where(c2[2]),
            Step::Zero,
        ],
        [Step::One, Step::One, Step::One, Step::Zero],
    ];
    let mut d = [[s.splat(0.0); 3]; 4];
    unrolled!(m in [0, 1, 2, 3] {
        let offset = s.splat(m as f32 * (1.0 / 6.0));
        unrolled!(a in [0, 1, 2] {
            d[m][a] = s.add(minus_step(s, d0[a], steps[m][a]), offset);
        });
    });
    SimplexShape {
        d,
        steps,
        r2: 0.6,
        scale: 32.0,
    }
}

/// The 4D simplex's corners (simplex4_corners).
#[inline(always)]
pub fn simplex4_corners<W: Wide, H: CornerHash<W>>(
    s: W,
    hash: &H,
    f: [W::F; 4],
) -> SimplexCorners<W, 4, 5> {
    simplex4_shape(s, f).corners(s, hash)
}

/// The 4D simplex's shape: each coordinate's rank from the six comparisons; corner m steps
/// along the axes whose rank is >= 4 - m (corner 4 along all).
#[inline(always)]
pub fn simplex4_shape<W: Wide>(s: W, f: [W::F; 4]) -> SimplexShape<W, 4, 5> {
    let sum = s.add(s.add(s.add(f[0], f[1]), f[2]), f[3]);
    let t = s.mul(sum, s.splat(SIMPLEX_G4));
    let d0 = [
        s.sub(f[0], t),
        s.sub(f[1], t),
        s.sub(f[2], t),
        s.sub(f[3], t),
    ];
    const PAIRS: [(usize, usize); 6] = [(0, 1), (0, 2), (1, 2), (0, 3), (1, 3), (2, 3)];
    let mut rank = [s.splat_u(0); 4];
    for (a, b) in PAIRS {
        let greater = s.lt(f[b], f[a]);
        rank[a] = s.add_u(rank[a], step_of(s, greater));
        rank[b] = s.sub_u(s.add_u(rank[b], s.splat_u(1)), step_of(s, greater));
    }
    let mut d = [[s.splat(0.0); 4]; 5];
    let mut steps = [[Step::Zero; 4]; 5];
    unrolled!(m in [0, 1, 2, 3, 4] {
        if m > 0 {
            unrolled!(a in [0, 1, 2, 3] {
                let reach = s.add_u(rank[a], s.splat_u(m as u32));
                steps[m][a] = Step::Where(s.lt_u(s.splat_u(3), reach));
            });
        }
        let offset = s.splat(m as f32 * SIMPLEX_G4);
        unrolled!(a in [0, 1, 2, 3] {
            d[m][a] = s.add(minus_step(s, d0[a], steps[m][a]), offset);
        });
    });
    SimplexShape {
        d,
        steps,
        r2: 0.6,
        scale: 27.0,
    }
}
