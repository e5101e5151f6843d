//! Whole-graph checks after each node reads well: the node count, cycles, and the depth from
//! the output (CONVENTIONS §13).

use super::read::graph_error;
use super::{Graph, MAX_DEPTH, MAX_NODES};
use crate::error::Result;

#[derive(Clone, Copy, PartialEq)]
enum Mark {
    New,
    Open,
    Done(usize),
}

pub(super) fn check(graph: &Graph) -> Result<()> {
    let n = graph.nodes.len();
    if n > MAX_NODES {
        return Err(graph_error(
            "",
            "nodes",
            format!("a graph holds at most {MAX_NODES} nodes, got {n}"),
        ));
    }
    let mut marks = vec![Mark::New; n];
    let mut path = Vec::new();
    for start in 0..n {
        height(graph, start, &mut marks, &mut path)?;
    }
    if let Mark::Done(depth) = marks[graph.output]
        && depth > MAX_DEPTH
    {
        return Err(graph_error(
            &graph.nodes[graph.output].name,
            "",
            format!("the chain of nodes below the output is {depth} deep; at most {MAX_DEPTH}"),
        ));
    }
    Ok(())
}

/// Nodes on the longest chain from `i` down to a source (1 for a source), marking cycles.
fn height(graph: &Graph, i: usize, marks: &mut [Mark], path: &mut Vec<usize>) -> Result<usize> {
    match marks[i] {
        Mark::Done(h) => return Ok(h),
        Mark::Open => {
            let from = path.iter().position(|&p| p == i).unwrap_or(0);
            let mut names: Vec<&str> = path[from..]
                .iter()
                .map(|&p| graph.nodes[p].name.as_str())
                .collect();
            names.push(&graph.nodes[i].name);
            return Err(graph_error(
                &graph.nodes[i].name,
                "",
                format!("is part of a cycle: {}", names.join(" -> ")),
            ));
        }
        Mark::New => {}
    }
    marks[i] = Mark::Open;
    path.push(i);
    let mut h = 0;
    for input in graph.nodes[i].op.inputs() {
        h = h.max(height(graph, input, marks, path)?);
    }
    path.pop();
    marks[i] = Mark::Done(h + 1);
    Ok(h + 1)
}
