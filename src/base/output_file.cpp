#include "base/output_file.h"

#include <cerrno>
#include <filesystem>
#include <system_error>
#include <utility>

#include "base/error.h"

namespace commsim {
namespace {

namespace fs = std::filesystem;

// A stream keeps only its state bits; why it failed is in errno, as the failed system call
// (open, write, close) left it. Callers clear errno before the call whose failure they report.
InputError write_error(const std::string& name) {
  const std::string reason = errno != 0 ? std::generic_category().message(errno) : "write failed";
  return InputError("cannot write " + name + ": " + reason);
}

/// The path itself, not what a symbolic link points to.
fs::file_type type_of(const std::string& path) {
  std::error_code ignored;  // not_found is the answer, not an error
  return fs::symlink_status(path, ignored).type();
}

}  // namespace

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
  if (path_.empty()) throw InputError("an output file's name is empty");
  const fs::file_type before = type_of(path_);
  errno = 0;
  // Binary: the bytes written are the bytes in the file, for traces and text alike.
  file_.open(path_, std::ios::out | std::ios::trunc | std::ios::binary);
  if (!file_) throw write_error(path_);
  // Decided by what was there before opening: /dev/full or a FIFO is not ours to remove.
  removable_ = (before == fs::file_type::not_found || before == fs::file_type::regular) &&
               type_of(path_) == fs::file_type::regular;
}

OutputFile::OutputFile(OutputFile&& other) noexcept
    : path_(std::move(other.path_)),
      file_(std::move(other.file_)),
      removable_(other.removable_),
      done_(std::exchange(other.done_, true)) {}

OutputFile::~OutputFile() { discard(); }

void OutputFile::close() {
  COMMSIM_CHECK(!done_, path_ + ": closed after it was committed or discarded");
  if (!file_.is_open()) {
    COMMSIM_CHECK(file_.good(), path_ + ": written after close()");
    return;
  }
  try {
    flush_and_check(file_, path_);
    errno = 0;
    file_.close();  // some file systems (NFS) report a failed write only at close
    if (!file_) throw write_error(path_);
  } catch (const InputError&) {
    discard();
    throw;
  }
}

void OutputFile::commit() {
  close();
  done_ = true;
}

void OutputFile::discard() noexcept {
  if (done_) return;
  done_ = true;
  file_.close();
  // Checked again: the path may have been replaced since it was opened.
  if (removable_ && type_of(path_) == fs::file_type::regular) {
    std::error_code ignored;  // nothing better to do in a destructor than leave it
    fs::remove(path_, ignored);
  }
}

void flush_and_check(std::ostream& stream, const std::string& name) {
  if (stream.good()) {
    errno = 0;
    stream.flush();
  }
  // A stream that failed before (a full buffer written to a full disk) has no errno of its
  // own: the one that write left is the best reason there is.
  if (!stream) throw write_error(name);
}

}  // namespace commsim
