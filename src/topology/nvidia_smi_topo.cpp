#include "topology/nvidia_smi_topo.h"

#include <algorithm>
#include <array>
#include <map>
#include <regex>
#include <sstream>
#include <string_view>

#include "base/error.h"

namespace commsim {
namespace {

// The columns after the devices, in the order nvidia-smi prints them (older drivers print
// only the first, or the first two).
constexpr std::array<std::string_view, 3> kTrailingColumns{"CPU Affinity", "NUMA Affinity", "GPU NUMA ID"};

struct TextLine {
  std::size_t number = 0;  // from 1
  std::vector<std::string> tokens;
};

// Drops carriage returns and ANSI escapes (ESC [ ... letter), and turns a literal "\t"
// (backslash, t) into a tab.
std::string clean(const std::string& raw) {
  static const std::regex ansi("\x1b\\[[0-9;]*[A-Za-z]");
  const std::string line = std::regex_replace(raw, ansi, "");
  std::string out;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == 't') {
      out += '\t';
      ++i;
    } else if (line[i] != '\r') {
      out += line[i];
    }
  }
  return out;
}

std::vector<TextLine> split_lines(const std::string& text) {
  std::vector<TextLine> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    TextLine l{lines.size() + 1, {}};
    std::istringstream words(clean(line));
    for (std::string word; words >> word;) l.tokens.push_back(word);
    lines.push_back(std::move(l));
  }
  return lines;
}

bool is_gpu_column(const std::string& name) {
  return name.size() > 3 && name.compare(0, 3, "GPU") == 0 &&
         std::all_of(name.begin() + 3, name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

struct Header {
  std::vector<std::string> devices;
  std::size_t trailing = 0;  // how many of kTrailingColumns follow the devices
};

// The header row: device names up to "CPU Affinity", then the trailing columns in order.
std::optional<Header> read_header(const TextLine& line, const std::string& where) {
  const auto& t = line.tokens;
  std::size_t cpu = 0;
  while (cpu + 1 < t.size() && !(t[cpu] == "CPU" && t[cpu + 1] == "Affinity")) ++cpu;
  if (cpu + 1 >= t.size()) return std::nullopt;
  Header h{{t.begin(), t.begin() + static_cast<std::ptrdiff_t>(cpu)}, 0};
  for (std::size_t at = cpu; at < t.size();) {
    const std::size_t start = at;
    std::string column;
    for (const std::string_view known : kTrailingColumns) {
      std::istringstream words{std::string(known)};
      std::size_t end = at;
      bool match = true;
      for (std::string word; match && words >> word; ++end) match = end < t.size() && t[end] == word;
      if (match) {
        column = known;
        at = end;
        break;
      }
    }
    if (column.empty() || h.trailing == kTrailingColumns.size() || column != kTrailingColumns[h.trailing]) {
      throw InputError(where + ": unexpected column '" + (column.empty() ? t[start] : column) +
                       "' after the devices (nvidia-smi prints " +
                       "CPU Affinity, NUMA Affinity, GPU NUMA ID, in that order)");
    }
    ++h.trailing;
  }
  std::map<std::string, int> seen;
  for (const std::string& d : h.devices) {
    if (seen[d]++) throw InputError(where + ": column '" + d + "' is named twice in the header");
  }
  return h;
}

SmiCell parse_cell(const std::string& text, const std::string& where) {
  static const std::map<std::string, PcieRelation> kCodes{
      {"PIX", PcieRelation::kPix}, {"PXB", PcieRelation::kPxb}, {"PHB", PcieRelation::kPhb},
      {"NODE", PcieRelation::kNode}, {"SYS", PcieRelation::kSys}, {"SOC", PcieRelation::kSys}};
  if (const auto it = kCodes.find(text); it != kCodes.end()) return {0, it->second};
  if (text.size() > 2 && text.size() <= 5 && text.compare(0, 2, "NV") == 0 &&
      std::all_of(text.begin() + 2, text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    const auto links = static_cast<std::uint32_t>(std::stoul(text.substr(2)));
    if (links > 0) return {links, PcieRelation::kSys};
  }
  throw InputError(where + ": unknown connection '" + text + "' (known: NV# with # links, PIX, PXB, PHB, NODE, SYS, SOC)");
}

bool is_affinity_list(const std::string& text) {  // "0-47,96-143"
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= '0' && c <= '9') || c == ',' || c == '-';
  });
}

// CPU Affinity and NUMA Affinity of a GPU row (GPU NUMA ID is not used).
void read_affinity(SmiDevice& device, const std::vector<std::string>& cells, const std::string& where) {
  if (cells.empty()) return;
  if (cells[0] != "N/A" && !is_affinity_list(cells[0])) {
    throw InputError(where + ": CPU Affinity '" + cells[0] + "' is not a list of CPUs such as 0-47,96-143");
  }
  device.cpu_affinity = cells[0];
  if (cells.size() < 2) return;
  const std::string& numa = cells[1];
  if (numa != "N/A" && !is_affinity_list(numa)) {
    throw InputError(where + ": NUMA Affinity '" + numa + "' is not a NUMA node number");
  }
  const bool one_node = std::all_of(numa.begin(), numa.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (one_node && numa.size() <= 9) device.numa_node = static_cast<std::uint32_t>(std::stoul(numa));
}

// One row: its device cells (diagonal X) and trailing columns.
void read_row(SmiTopoMatrix& m, std::size_t r, const TextLine& line, const Header& h) {
  SmiDevice& device = m.devices[r];
  device.line = line.number;
  const std::string where = m.where(r);
  const std::size_t n = h.devices.size();
  const std::size_t cells = line.tokens.size() - 1;
  const bool fits = device.gpu ? cells == n + h.trailing : cells >= n && cells <= n + h.trailing;
  if (!fits) {
    throw InputError(where + ": row " + device.column + " has " + std::to_string(cells) + " cells, expected " +
                     std::to_string(device.gpu ? n + h.trailing : n) + " (" + std::to_string(n) + " devices" +
                     (device.gpu && h.trailing ? " and " + std::to_string(h.trailing) + " affinity columns" : "") + ")");
  }
  for (std::size_t c = 0; c < n; ++c) {
    const std::string& text = line.tokens[1 + c];
    const std::string at = where + ": row " + device.column + ", column " + h.devices[c];
    if ((text == "X") != (c == r)) {
      throw InputError(at + ": '" + text + "' " + (c == r ? "where the diagonal has X" : "off the diagonal"));
    }
    if (c != r) m.cells[r][c] = parse_cell(text, at);
  }
  if (device.gpu) read_affinity(device, {line.tokens.begin() + 1 + static_cast<std::ptrdiff_t>(n), line.tokens.end()}, where);
}

// "NIC0: mlx5_0" lines after "NIC Legend:" name the NIC columns.
void read_nic_legend(SmiTopoMatrix& m, const std::vector<TextLine>& lines, std::size_t from) {
  bool in_legend = false;
  std::map<std::string, std::size_t> named;  // legend name -> device
  for (std::size_t i = from; i < lines.size(); ++i) {
    const auto& t = lines[i].tokens;
    if (t.size() == 2 && t[0] == "NIC" && t[1] == "Legend:") in_legend = true;
    if (!in_legend || t.size() != 2 || t[0].size() < 2 || t[0].back() != ':') continue;
    const std::string column = t[0].substr(0, t[0].size() - 1);
    for (std::size_t d = 0; d < m.devices.size(); ++d) {
      if (m.devices[d].column != column || m.devices[d].gpu) continue;
      const auto [other, fresh] = named.emplace(t[1], d);
      if (!fresh) {
        throw InputError(m.origin + ":" + std::to_string(lines[i].number) + ": NIC legend names " + column + " and " +
                         m.devices[other->second].column + " both '" + t[1] + "'");
      }
      m.devices[d].name = t[1];
    }
  }
}

void check_symmetric(const SmiTopoMatrix& m) {
  const auto text = [](const SmiCell& c) {
    return c.nvlinks ? "NV" + std::to_string(c.nvlinks) : std::string(pcie_relation_name(c.pcie));
  };
  for (std::size_t a = 0; a < m.devices.size(); ++a) {
    for (std::size_t b = 0; b < a; ++b) {
      const SmiCell& ab = m.cell(a, b);
      if (!(ab == m.cell(b, a))) {
        throw InputError(m.where(a) + ": " + m.devices[a].column + " to " + m.devices[b].column + " is " + text(ab) +
                         " but " + m.devices[b].column + " to " + m.devices[a].column + " (line " +
                         std::to_string(m.devices[b].line) + ") is " + text(m.cell(b, a)) + ": the matrix is not symmetric");
      }
      if (ab.nvlinks && !(m.devices[a].gpu && m.devices[b].gpu)) {
        throw InputError(m.where(a) + ": " + m.devices[a].column + " to " + m.devices[b].column + " is " + text(ab) +
                         ": NVLink joins GPUs only");
      }
    }
  }
}

}  // namespace

const char* pcie_relation_name(PcieRelation relation) {
  switch (relation) {
    case PcieRelation::kPix: return "PIX";
    case PcieRelation::kPxb: return "PXB";
    case PcieRelation::kPhb: return "PHB";
    case PcieRelation::kNode: return "NODE";
    case PcieRelation::kSys: break;
  }
  return "SYS";
}

std::size_t SmiTopoMatrix::gpu_count() const {
  return static_cast<std::size_t>(std::count_if(devices.begin(), devices.end(), [](const SmiDevice& d) { return d.gpu; }));
}

std::string SmiTopoMatrix::where(std::size_t d) const { return origin + ":" + std::to_string(devices[d].line); }

SmiTopoMatrix parse_nvidia_smi_topo(const std::string& text, const std::string& origin) {
  const std::vector<TextLine> lines = split_lines(text);
  std::size_t at = 0;
  std::optional<Header> header;
  for (; at < lines.size() && !header; ++at) header = read_header(lines[at], origin + ":" + std::to_string(lines[at].number));
  if (!header) {
    throw InputError(origin + ": no header row with 'CPU Affinity': not the output of nvidia-smi topo -m");
  }
  const std::string header_at = origin + ":" + std::to_string(lines[at - 1].number);
  SmiTopoMatrix m{origin, {}, {}};
  for (const std::string& column : header->devices) m.devices.push_back({column, column, is_gpu_column(column), "", {}, 0});
  if (m.gpu_count() == 0) throw InputError(header_at + ": no GPU rows: the header names no GPU0, GPU1, ... column");
  const std::size_t n = m.devices.size();
  m.cells.assign(n, std::vector<SmiCell>(n));
  std::size_t rows = 0;
  for (; at < lines.size() && !lines[at].tokens.empty() && lines[at].tokens[0] != "Legend:"; ++at, ++rows) {
    const std::string row_at = origin + ":" + std::to_string(lines[at].number);
    const std::string& label = lines[at].tokens[0];
    if (rows == n) throw InputError(row_at + ": row '" + label + "' after the last of the " + std::to_string(n) + " columns: the matrix is not square");
    if (label != m.devices[rows].column) {
      throw InputError(row_at + ": row '" + label + "' where the header's order puts " + m.devices[rows].column);
    }
    read_row(m, rows, lines[at], *header);
  }
  if (rows < n) {
    const std::string end_at = origin + ":" + std::to_string(at < lines.size() ? lines[at].number : lines.size() + 1);
    throw InputError(end_at + ": " + (rows == 0 ? std::string("no GPU rows after the header") :
                                       "the matrix has " + std::to_string(rows) + " rows for " + std::to_string(n) +
                                           " columns, the first missing is " + m.devices[rows].column + ": not square"));
  }
  read_nic_legend(m, lines, at);
  check_symmetric(m);
  return m;
}

}  // namespace commsim
