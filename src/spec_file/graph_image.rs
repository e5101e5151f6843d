//! A graph in a spec file (CONVENTIONS §13): the flat fields describe its image, and the noise
//! fields belong on its nodes.

use super::SpecFile;
use crate::{Error, Graph, Job, Kind, NoiseSpec, Result};

impl SpecFile {
    /// The spec's graph (its `graph` field), if any, read by the graph's own reader.
    pub fn graph(&self) -> Result<Option<Graph>> {
        self.graph
            .as_ref()
            .map(|text| Graph::from_json(&text.0))
            .transpose()
    }

    /// `graph` placed in the image this layer describes: the layer's noise fields are
    /// refused (nodes carry them), its seed and lattice replace the graph's, its size and offset
    /// follow the flat spec's rules for the graph's dims, and `tile` asks every node to tile
    /// with that size ([`Graph::prepare_tiled`]). Also returns that image's spec (a value
    /// spec of the graph's dims: size, offset, and the levels' defaults).
    pub fn place_graph(&self, graph: Graph) -> Result<(Job, NoiseSpec)> {
        self.refuse_noise_fields()?;
        let mut graph = graph;
        if let Some(dims) = self.dims.filter(|&d| d != graph.dims()) {
            return Err(Error::InvalidSpec {
                field: "dims",
                reason: format!("the graph is {}D; `dims` {dims} disagrees", graph.dims()),
            });
        }
        if let Some(seed) = self.seed {
            graph = graph.with_seed(seed);
        }
        if let Some(lattice) = self.lattice {
            graph = graph.with_lattice(lattice);
        }
        let mut image = self.clone();
        image.kind = Some(Kind::Value);
        image.dims = Some(graph.dims());
        image.seed = None;
        image.lattice = None;
        // Tiling is the image's: every node of the graph must tile with its size.
        image.tile = None;
        let mut spec = image.noise_spec()?;
        // Profiles and CSV label texels by their place: a graph's root point, offset + index.
        spec.frequency = 1.0;
        let job = if self.tile == Some(true) {
            graph.prepare_tiled(spec.size, spec.offset)?
        } else {
            graph.prepare(spec.size, spec.offset)?
        };
        Ok((job, spec))
    }
}

impl SpecFile {
    /// Refuses the noise fields a graph's nodes carry instead (`frequency`, `octaves`, a kind's
    /// parameters, ...): given beside a graph, each is an error naming it.
    pub fn refuse_noise_fields(&self) -> Result<()> {
        refuse_noise_fields(self)
    }
}

fn refuse_noise_fields(layer: &SpecFile) -> Result<()> {
    let given = [
        ("kind", layer.kind.is_some()),
        ("frequency", layer.frequency.is_some()),
        ("interp", layer.interp.is_some()),
        ("fractal", layer.fractal.is_some()),
        ("octaves", layer.octaves.is_some()),
        ("lacunarity", layer.lacunarity.is_some()),
        ("persistence", layer.persistence.is_some()),
    ];
    let kind_param = layer.kind_params.first_name().map(|name| (name, true));
    match given.iter().copied().find(|(_, set)| *set).or(kind_param) {
        Some((field, _)) => Err(Error::InvalidSpec {
            field,
            reason: "is a node parameter in a graph: set it on the graph's node".into(),
        }),
        None => Ok(()),
    }
}
