#pragma once
// Point-to-point send and receive with rendezvous (DESIGN.md section 3, "Messages"): a
// transfer starts when its send has been posted and the matching receive has been posted,
// as NCCL's send/receive behave. Receives match sends by (source, destination, tag) in
// posting order. Both completions run when the data has arrived: the send's first, then
// the receive's (so a receive can learn which send fed it). A receive may state its size:
// matching it with a send of another size throws DeadlockError naming both (the pair can
// never complete as written).

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "network/transport.h"

namespace commsim {

class Rendezvous {
 public:
  explicit Rendezvous(Transport& transport) : transport_(transport) {}

  /// `label` names the operation in deadlock reports ("activation of micro-batch 3").
  void post_send(Rank src, Rank dst, std::int64_t tag, Bytes bytes, Callback on_done,
                 std::string label = {});
  void post_recv(Rank dst, Rank src, std::int64_t tag, Callback on_done, std::string label = {});
  /// A receive of `bytes`: the send it matches must be of `bytes` too.
  void post_recv(Rank dst, Rank src, std::int64_t tag, Bytes bytes, Callback on_done,
                 std::string label = {});

  /// Operations posted but never matched, in (src, dst, tag) order: what a deadlock waits on.
  std::vector<std::string> unmatched() const;
  bool idle() const { return pending_.empty(); }

 private:
  struct Send {
    Bytes bytes;
    Callback on_done;
    std::string label;
  };
  struct Recv {
    std::optional<Bytes> bytes;  // empty: takes any size
    Callback on_done;
    std::string label;
  };
  struct Queue {
    std::deque<Send> sends;
    std::deque<Recv> recvs;
  };
  using Key = std::tuple<Rank, Rank, std::int64_t>;  // src, dst, tag

  void match(const Key& key);
  void post(Rank dst, Rank src, std::int64_t tag, Recv recv);
  static void check_sizes(const Key& key, const Send& send, const Recv& recv);

  Transport& transport_;
  std::map<Key, Queue> pending_;  // ordered: deadlock reports are deterministic
};

}  // namespace commsim
