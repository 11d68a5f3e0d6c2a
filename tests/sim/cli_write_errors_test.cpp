// A failed write is an error, never a silent success: every output file and standard output
// is checked; a bad path fails before the work; a partial file is removed.

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "run_cli.h"

namespace commsim::testing {
namespace {

namespace fs = std::filesystem;

const std::string kTrace = source_path("workloads/allreduce-8ranks.textproto");

// Every file option of every command, as {arguments before the option, the option}.
struct FileOption {
  std::vector<std::string> command;
  std::string option;
};

const std::vector<FileOption>& file_options() {
  static const std::vector<FileOption> options{
      {{"topo"}, "--dot"},
      {{"p2p", "--size", "1K"}, "--csv"},
      {{"p2p", "--size", "1K"}, "--timeline"},
      {{"collective", "--size", "1K"}, "--csv"},
      {{"collective", "--size", "1K"}, "--timeline"},
      {{"pipeline"}, "--csv"},
      {{"pipeline"}, "--timeline"},
      {{"replay", "--trace", kTrace}, "--csv"},
      {{"replay", "--trace", kTrace}, "--timeline"},
      {{"p2p", "--size", "1K"}, "--link-stats"},
      {{"collective", "--size", "1K"}, "--link-stats"},
      {{"pipeline"}, "--link-stats"},
      {{"replay", "--trace", kTrace}, "--link-stats"},
      {{"replay", "--trace", kTrace}, "--collectives-csv"},
      {{"replay", "--trace", kTrace}, "--collectives-json"},
      {{"generate", "collective"}, "--output"},
      {{"topo", "--import-nvidia-smi", source_path("tests/data/nvidia-smi-topo-hgx-h100-8nic.txt"), "--gpu", "h100"}, "--output"},
  };
  return options;
}

CliResult run_with(const FileOption& o, const std::string& path) {
  std::vector<std::string> args = o.command;
  args.insert(args.end(), {o.option, path});
  return run_commsim(args);
}

TEST(CliWriteErrors, FullDeviceIsAnErrorAndSurvives) {
  for (const FileOption& o : file_options()) {
    SCOPED_TRACE(o.command.front() + " " + o.option);
    const CliResult r = run_with(o, "/dev/full");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.rfind("commsim: error: ", 0), 0u) << r.err;
    EXPECT_CONTAINS(r.err, "cannot write /dev/full: No space left on device");
    EXPECT_TRUE(fs::is_character_file("/dev/full"));
  }
}

TEST(CliWriteErrors, MissingDirectoryFailsBeforeTheWork) {
  for (const FileOption& o : file_options()) {
    SCOPED_TRACE(o.command.front() + " " + o.option);
    const CliResult r = run_with(o, "/nonexistent/dir/out");
    EXPECT_EQ(r.status, 2);
    EXPECT_CONTAINS(r.err, "cannot write /nonexistent/dir/out");
    EXPECT_CONTAINS(r.err, ": No such file or directory");
    EXPECT_EQ(r.out, "") << "nothing is reported before the outputs are open";
  }
  // The simulation would deadlock; the bad path is found first.
  const CliResult r = run_commsim({"pipeline", "--p2p-mode", "sequential", "--p2p-order", "send-first",
                                   "--csv", "/nonexistent/dir/out.csv"});
  EXPECT_EQ(r.status, 2);
  EXPECT_CONTAINS(r.err, "cannot write /nonexistent/dir/out.csv");
}

// An empty path is refused before the work, naming the option it was given to.
TEST(CliWriteErrors, AnEmptyPathNamesItsOption) {
  for (const FileOption& o : file_options()) {
    SCOPED_TRACE(o.command.front() + " " + o.option);
    const CliResult r = run_with(o, "");
    EXPECT_EQ(r.status, 2);
    EXPECT_CONTAINS(r.err, o.option + ": an output file's name is empty");
    EXPECT_EQ(r.out, "");
  }
}

TEST(CliWriteErrors, PartialFilesAreRemovedWhenTheWorkFails) {
  const std::string csv = tmp_path("deadlocked.csv");
  const std::string timeline = tmp_path("deadlocked.json");
  write_file(csv, "an older run");
  const CliResult r = run_commsim({"pipeline", "--p2p-mode", "sequential", "--p2p-order", "send-first",
                                   "--csv", csv, "--timeline", timeline});
  EXPECT_EQ(r.status, 2);
  EXPECT_CONTAINS(r.err, "pipeline deadlock");
  EXPECT_FALSE(fs::exists(csv));
  EXPECT_FALSE(fs::exists(timeline));

  const std::string dot = tmp_path("bad-topology.dot");
  const CliResult t = run_commsim({"topo", "--topology", "ring", "--bandwidth", "0GB/s", "--dot", dot});
  EXPECT_EQ(t.status, 2);
  EXPECT_FALSE(fs::exists(dot));
}

/// A stream buffer whose every write fails, as a full disk's or a closed terminal's would.
class FailingBuffer : public std::streambuf {
 protected:
  int_type overflow(int_type) override { return traits_type::eof(); }
};

TEST(CliWriteErrors, StandardOutputThatCannotBeWritten) {
  FailingBuffer buffer;
  std::ostream out(&buffer);
  std::ostringstream err;
  EXPECT_EQ(cli::run({"p2p", "--sizes", "1:1K"}, out, err), 2);
  EXPECT_EQ(err.str().rfind("commsim: error: cannot write standard output: ", 0), 0u) << err.str();

  // Already failed before the command ran: still an error.
  std::ostringstream broken;
  broken.setstate(std::ios::badbit);
  std::ostringstream err2;
  EXPECT_EQ(cli::run({"topo"}, broken, err2), 2);
  EXPECT_NE(err2.str().find("cannot write standard output"), std::string::npos) << err2.str();
}

}  // namespace
}  // namespace commsim::testing
