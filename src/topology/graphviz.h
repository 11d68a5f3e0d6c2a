#pragma once
// Graphviz DOT export of a topology, laid out by topology/graphviz_layout.h:
//  - NPUs are rounded boxes, switches grey ellipses (double-bordered if they reduce in the
//    fabric, NVLink SHARP), a host-memory vertex a cylinder;
//  - a box per node (its GPUs and NVSwitch or PCIe tree) and per switch level of a tree;
//  - one edge per link (a full-duplex link's two channels are one line), coloured by kind
//    (NVLink green, PCIe blue, InfiniBand vermilion, Ethernet purple, other orange: the
//    Okabe-Ito palette, which readers with colour-blindness tell apart), pen width growing
//    with bandwidth: 1 + log2(B / B_min) points, B_min the topology's slowest link, at most
//    6; half-duplex links dashed;
//  - a legend under the picture: the name and description, one row per kind of link
//    (colour and width, bandwidth, latency, duplex, how many) and the shapes used;
//  - every vertex and link carries its full name and parameters as a tooltip (SVG output).
// The graph names its layout engine, so `dot -Tsvg FILE` draws rings and grids with neato
// (their vertices pinned) and the rest with dot. Output is a function of the topology alone:
// the same input, the same bytes.
//
// Written by our own writer rather than Boost's write_graphviz: that writes one flat list of
// vertices, and clusters would need the graph rebuilt as a boost::subgraph (with vertex and
// edge index properties) only to print it.

#include <ostream>
#include <string>

#include "topology/topology.h"

namespace commsim {

void write_dot(std::ostream& out, const Topology& topology);

/// A link's parameters in words: "450 GB/s 250 ns nvlink", "11.09 GB/s 500 ns pcie
/// half-duplex (x0.72 both ways)".
std::string link_description(const LinkParams& params);

/// The colour a link of this kind is drawn in, "#RRGGBB".
std::string_view link_colour(LinkKind kind);

/// The pen width of a link of `bandwidth` in a topology whose slowest link has `slowest`,
/// points: 1 + log2(bandwidth / slowest), at most 6.
double link_pen_width(BandwidthBps bandwidth, BandwidthBps slowest);

}  // namespace commsim
