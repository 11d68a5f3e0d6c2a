#include "base/output_file.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

#include "base/error.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;

std::string tmp(const std::string& name) { return std::string(COMMSIM_TEST_TMP_DIR) + "/" + name; }

/// A fresh path: nothing there.
std::string fresh(const std::string& name) {
  const std::string path = tmp(name);
  fs::remove_all(path);
  return path;
}

std::string contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no InputError)";
}

/// More than any stream buffer, so that writes fail before the final flush too.
void write_lots(std::ostream& out) {
  for (int i = 0; i < 100000; ++i) out << "0123456789abcdef\n";
}

TEST(OutputFile, CommittedFileHoldsWhatWasWritten) {
  const std::string path = fresh("output-file-ok.txt");
  OutputFile file(path);
  file.stream() << "a,b\n1,2\n";
  file.commit();
  EXPECT_EQ(contents(path), "a,b\n1,2\n");
}

TEST(OutputFile, BadPathFailsWhenOpenedAndCreatesNothing) {
  const std::string missing = tmp("no-such-dir/out.csv");
  EXPECT_EQ(error_of([&] { OutputFile file(missing); }),
            "cannot write " + missing + ": No such file or directory");
  EXPECT_FALSE(fs::exists(missing));
  const std::string dir = fresh("output-file-dir");
  fs::create_directory(dir);
  EXPECT_EQ(error_of([&] { OutputFile file(dir); }), "cannot write " + dir + ": Is a directory");
  EXPECT_EQ(error_of([&] { OutputFile file(""); }), "an output file's name is empty");
  EXPECT_TRUE(fs::is_directory(dir));
}

TEST(OutputFile, FullDeviceFailsAtCommitAndIsNotRemoved) {
  // Small output sits in the buffer until commit flushes it; large output fails on the way.
  for (const bool lots : {false, true}) {
    SCOPED_TRACE(lots ? "large" : "small");
    EXPECT_EQ(error_of([&] {
                OutputFile file("/dev/full");
                if (lots) write_lots(file.stream());
                file.stream() << "x\n";
                file.commit();
              }),
              "cannot write /dev/full: No space left on device");
    EXPECT_TRUE(fs::is_character_file("/dev/full"));
  }
}

TEST(OutputFile, UncommittedFileIsRemovedWhenTheWorkThrows) {
  const std::string path = fresh("output-file-partial.csv");
  EXPECT_THROW(
      {
        OutputFile file(path);
        file.stream() << "header\n";
        throw std::runtime_error("the simulation failed");
      },
      std::runtime_error);
  EXPECT_FALSE(fs::exists(path));
  // A file that was there before is truncated when opened, so it goes too: no stale copy
  // is left to pass for this run's output.
  std::ofstream(path) << "an older run";
  { OutputFile file(path); }
  EXPECT_FALSE(fs::exists(path));
}

TEST(OutputFile, ClosedFileIsRemovedUnlessCommitted) {
  const std::string kept = fresh("output-file-kept.txt");
  const std::string dropped = fresh("output-file-dropped.txt");
  {
    OutputFile a(kept);
    OutputFile b(dropped);
    a.stream() << "a";
    b.stream() << "b";
    a.close();
    b.close();
    a.commit();
  }
  EXPECT_EQ(contents(kept), "a");
  EXPECT_FALSE(fs::exists(dropped));
}

TEST(OutputFile, MovedFromObjectRemovesNothing) {
  const std::string path = fresh("output-file-moved.txt");
  OutputFile first(path);
  {
    OutputFile second(std::move(first));
    second.stream() << "moved";
    second.commit();
  }
  EXPECT_EQ(contents(path), "moved");
}

TEST(OutputFile, NeverRemovesAFifo) {
  const std::string path = fresh("output-file-fifo");
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  // A reader holds the FIFO open, so that opening it for writing does not block.
  const int reader = ::open(path.c_str(), O_RDWR | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  { OutputFile file(path); }
  ::close(reader);
  EXPECT_TRUE(fs::is_fifo(path));
  fs::remove(path);
}

TEST(OutputFile, NeverRemovesASymbolicLinkOrItsTarget) {
  const std::string target = fresh("output-file-target.txt");
  const std::string link = fresh("output-file-link.txt");
  std::ofstream(target) << "old";
  fs::create_symlink(target, link);
  { OutputFile file(link); }
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_TRUE(fs::exists(target));
}

/// A stream buffer whose every write fails, as a closed terminal's would.
class FailingBuffer : public std::streambuf {
 protected:
  int_type overflow(int_type) override { return traits_type::eof(); }
};

TEST(FlushAndCheck, NamesTheStreamThatFailed) {
  std::ostringstream good;
  good << "fine";
  EXPECT_NO_THROW(flush_and_check(good, "good"));
  FailingBuffer buffer;
  std::ostream bad(&buffer);
  bad << "lost";
  EXPECT_EQ(error_of([&] { flush_and_check(bad, "standard output"); }).rfind("cannot write standard output: ", 0),
            0u);
}

}  // namespace
}  // namespace commsim
