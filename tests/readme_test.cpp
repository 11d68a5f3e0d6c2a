// The README's commands run as written, and its sample outputs are what the tool prints.
//
// Every indented code block's `./build/commsim` lines (continuations joined, trailing
// `# comments` dropped) run in order through sh, in a scratch directory laid out like a
// checkout: the repository's folders linked in, `build/commsim` the program under test and
// `../shared` beside it when the repository has it. Each must exit 0.
//
// Every fenced block whose first line is `$ ./build/commsim ...` is a transcript: the command
// runs likewise, and the block's other lines must appear in its standard output, in order
// (a transcript may leave lines out, never change one).

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

const fs::path kSource = COMMSIM_SOURCE_DIR;
const fs::path kShared = COMMSIM_SHARED_DIR;

struct ReadmeBlock {
  int line = 0;                    // of the block's first line in README.md
  std::vector<std::string> lines;  // without the indentation or fences
};

void PrintTo(const ReadmeBlock& block, std::ostream* out) { *out << "README.md:" << block.line; }

std::vector<std::string> readme_lines() {
  std::ifstream in(kSource / "README.md");
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

/// Indented code blocks: runs of lines that start with four spaces, outside fences, after
/// a blank line.
std::vector<ReadmeBlock> indented_blocks(const std::vector<std::string>& lines) {
  std::vector<ReadmeBlock> blocks;
  bool fenced = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind("```", 0) == 0) fenced = !fenced;
    const bool code = !fenced && lines[i].rfind("    ", 0) == 0;
    if (!code) continue;
    const bool starts = i == 0 || lines[i - 1].empty();
    if (starts) blocks.push_back({static_cast<int>(i + 1), {}});
    if (!blocks.empty()) blocks.back().lines.push_back(lines[i].substr(4));
  }
  return blocks;
}

/// Fenced blocks whose first line is a `$ ` command.
std::vector<ReadmeBlock> transcript_blocks(const std::vector<std::string>& lines) {
  std::vector<ReadmeBlock> blocks;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind("```", 0) != 0) continue;
    std::size_t end = i + 1;
    while (end < lines.size() && lines[end].rfind("```", 0) != 0) ++end;
    if (end > i + 1 && lines[i + 1].rfind("$ ./build/commsim ", 0) == 0) {
      blocks.push_back({static_cast<int>(i + 2), {lines.begin() + i + 1, lines.begin() + end}});
    }
    i = end;
  }
  return blocks;
}

/// The block's `./build/commsim` commands, continuations joined and comments dropped.
std::vector<std::string> commands_of(const ReadmeBlock& block) {
  std::vector<std::string> commands;
  for (std::size_t i = 0; i < block.lines.size(); ++i) {
    if (block.lines[i].rfind("./build/commsim ", 0) != 0) continue;
    std::string command = block.lines[i];
    while (!command.empty() && command.back() == '\\' && i + 1 < block.lines.size()) {
      command.pop_back();
      command += block.lines[++i];
    }
    const auto comment = command.find("  #");
    if (comment != std::string::npos) command.erase(comment);
    commands.push_back(command);
  }
  return commands;
}

/// A directory that looks like a checkout with its build: the repository's folders linked
/// in, build/commsim the program under test, ../shared when there is one.
fs::path scratch_checkout(int readme_line) {
  const fs::path root = fs::path(COMMSIM_TEST_TMP_DIR) / ("readme-" + std::to_string(readme_line));
  fs::remove_all(root);
  const fs::path checkout = root / "repo";
  fs::create_directories(checkout / "build");
  for (const char* entry : {"README.md", "proto", "results", "tests", "topologies", "workloads"}) {
    fs::create_symlink(kSource / entry, checkout / entry);
  }
  fs::create_symlink(COMMSIM_BINARY, checkout / "build" / "commsim");
  if (fs::exists(kShared)) fs::create_directory_symlink(fs::canonical(kShared), root / "shared");
  return checkout;
}

struct ShellResult {
  int status;
  std::string out;
  std::string err;
};

std::string file_text(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

ShellResult run_in(const fs::path& dir, const std::string& command) {
  const std::string shell = "cd '" + dir.string() + "' && (" + command + ") > .stdout 2> .stderr";
  const int status = std::system(shell.c_str());
  return {status, file_text(dir / ".stdout"), file_text(dir / ".stderr")};
}

bool needs_shared(const ReadmeBlock& block) {
  for (const std::string& line : block.lines) {
    if (line.find("../shared") != std::string::npos) return true;
  }
  return false;
}

std::string block_name(const testing::TestParamInfo<ReadmeBlock>& info) {
  return "line" + std::to_string(info.param.line);
}

std::vector<ReadmeBlock> blocks_with_commands() {
  std::vector<ReadmeBlock> blocks;
  for (const ReadmeBlock& b : indented_blocks(readme_lines())) {
    if (!commands_of(b).empty()) blocks.push_back(b);
  }
  return blocks;
}

class ReadmeExamples : public testing::TestWithParam<ReadmeBlock> {};

TEST_P(ReadmeExamples, RunAsWritten) {
  const ReadmeBlock& block = GetParam();
  if (needs_shared(block) && !fs::exists(kShared)) {
    GTEST_SKIP() << "README.md:" << block.line << " reads ../shared, absent: " << kShared;
  }
  const fs::path dir = scratch_checkout(block.line);
  for (const std::string& command : commands_of(block)) {
    const ShellResult r = run_in(dir, command);
    EXPECT_EQ(r.status, 0) << "README.md:" << block.line << ": " << command << "\n" << r.err;
  }
}

INSTANTIATE_TEST_SUITE_P(Readme, ReadmeExamples, testing::ValuesIn(blocks_with_commands()), block_name);

class ReadmeTranscripts : public testing::TestWithParam<ReadmeBlock> {};

TEST_P(ReadmeTranscripts, AreWhatTheToolPrints) {
  const ReadmeBlock& block = GetParam();
  const std::string command = block.lines.front().substr(2);
  const ShellResult r = run_in(scratch_checkout(block.line), command);
  ASSERT_EQ(r.status, 0) << command << "\n" << r.err;
  std::istringstream printed(r.out);
  std::string line;
  for (std::size_t i = 1; i < block.lines.size(); ++i) {
    bool found = false;
    while (!found && std::getline(printed, line)) found = line == block.lines[i];
    EXPECT_TRUE(found) << "README.md:" << block.line + static_cast<int>(i) << " is not printed (in order) by "
                       << command << ":\n" << block.lines[i] << "\nthe tool prints:\n" << r.out;
    if (!found) return;
  }
}

INSTANTIATE_TEST_SUITE_P(Readme, ReadmeTranscripts, testing::ValuesIn(transcript_blocks(readme_lines())),
                         block_name);

TEST(ReadmeBlocks, TheReaderFindsTheReadmesCommandsAndTranscripts) {
  // A reader that finds nothing would make the tests above pass vacuously.
  EXPECT_GE(blocks_with_commands().size(), 8u);
  EXPECT_GE(transcript_blocks(readme_lines()).size(), 3u);
  const ReadmeBlock joined{1, {"./build/commsim a \\", "    b  # note", "./build/commsim c"}};
  EXPECT_EQ(commands_of(joined), (std::vector<std::string>{"./build/commsim a     b", "./build/commsim c"}));
}

}  // namespace
