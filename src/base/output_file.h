#pragma once
// A file that a command writes, checked at every step so that a failed write is an error
// (DESIGN.md section 4) and never a silent success with a truncated file:
//  - the constructor opens the file, so a command opens its outputs before the long work
//    and a bad path (a missing directory, a directory) fails at once;
//  - close() flushes, checks and closes: a full disk or /dev/full fails here, since the
//    stream buffers what is written and the operating system sees it only at the flush;
//  - commit() closes and keeps the file;
//  - a failed close, or destruction without commit (the work threw), removes the partial
//    file, so no file that looks complete but is not is left behind.
// A set of files that only make sense together (a Chakra trace, a file per rank) closes
// each as it is written and commits all at the end: a failure then removes all of them,
// with no more than one file open at a time.
// Every failure is InputError("cannot write PATH: <reason from the operating system>").
//
// Only a regular file is ever removed, and only one this object created or truncated:
// never /dev/full, a FIFO, a terminal or whatever a symbolic link points to.

#include <fstream>
#include <ostream>
#include <string>

namespace commsim {

class OutputFile {
 public:
  /// Creates `path`, or truncates it, for writing. Throws InputError if it cannot.
  explicit OutputFile(std::string path);
  OutputFile(OutputFile&& other) noexcept;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  OutputFile& operator=(OutputFile&&) = delete;
  /// Removes the file unless committed.
  ~OutputFile();

  std::ostream& stream() { return file_; }
  const std::string& path() const { return path_; }

  /// Flushes, checks and closes, but does not keep the file yet: the destructor still
  /// removes it unless committed. On failure removes the file and throws InputError.
  void close();
  /// Closes (if not closed yet) and keeps the file.
  void commit();

 private:
  /// Closes and, if this object may, removes the file. Idempotent.
  void discard() noexcept;

  std::string path_;
  std::ofstream file_;
  bool removable_ = false;  // a regular file that this object created or truncated
  bool done_ = false;       // committed or discarded: the destructor leaves the file alone
};

/// Flushes `stream` and throws InputError("cannot write NAME: <reason>") if this flush or
/// any write before it failed. For streams that are not files, such as standard output.
void flush_and_check(std::ostream& stream, const std::string& name);

}  // namespace commsim
