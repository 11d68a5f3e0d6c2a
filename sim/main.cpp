#include <malloc.h>

#include <iostream>
#include <string>
#include <vector>

#include "cli.h"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  // A command that runs many small simulations (p2p over all pairs, sweeps) frees a few
  // hundred KB at the top of the heap after each; glibc gave it back to the kernel every
  // time (its default trim threshold, 128 KB) and took it again, and on a virtual machine
  // each give-back is a TLB shootdown: 4,032 runs on a 64-NPU torus spent 0.3-0.9 s of
  // system time on it against 0.04 s of work. Blocks below 32 MB (the largest glibc would
  // itself come to) come from the heap, which keeps up to 64 MB of free top; peak memory of
  // the large runs is unchanged (README, "Performance").
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
  return commsim::cli::run(std::vector<std::string>(argv + 1, argv + argc), std::cout, std::cerr);
}
