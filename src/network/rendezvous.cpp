#include "network/rendezvous.h"

#include <memory>

#include "base/error.h"

namespace commsim {
namespace {
std::string in_parentheses(const std::string& label) {
  if (label.empty()) return label;
  std::string text = " (";
  text += label;
  text += ')';
  return text;
}
}  // namespace

void Rendezvous::check_sizes(const Key& key, const Send& send, const Recv& recv) {
  if (!recv.bytes || *recv.bytes == send.bytes) return;
  const auto& [src, dst, tag] = key;
  const std::string pair = " (" + std::to_string(src) + " -> " + std::to_string(dst) + " tag " +
                           std::to_string(tag) + ")";
  throw DeadlockError("mismatched send and receive" + pair + ": send" + in_parentheses(send.label) +
                      " is " + std::to_string(send.bytes) + " B, but receive" +
                      in_parentheses(recv.label) + " is " + std::to_string(*recv.bytes) + " B");
}

void Rendezvous::post_send(Rank src, Rank dst, std::int64_t tag, Bytes bytes, Callback on_done,
                           std::string label) {
  const Key key{src, dst, tag};
  pending_[key].sends.push_back({bytes, std::move(on_done), std::move(label)});
  match(key);
}

void Rendezvous::post_recv(Rank dst, Rank src, std::int64_t tag, Callback on_done,
                           std::string label) {
  post(dst, src, tag, {std::nullopt, std::move(on_done), std::move(label)});
}

void Rendezvous::post_recv(Rank dst, Rank src, std::int64_t tag, Bytes bytes, Callback on_done,
                           std::string label) {
  post(dst, src, tag, {bytes, std::move(on_done), std::move(label)});
}

void Rendezvous::post(Rank dst, Rank src, std::int64_t tag, Recv recv) {
  const Key key{src, dst, tag};
  pending_[key].recvs.push_back(std::move(recv));
  match(key);
}

void Rendezvous::match(const Key& key) {
  const auto it = pending_.find(key);
  Queue& q = it->second;
  while (!q.sends.empty() && !q.recvs.empty()) {
    check_sizes(key, q.sends.front(), q.recvs.front());
    auto done = std::make_shared<std::pair<Callback, Callback>>(std::move(q.sends.front().on_done),
                                                                std::move(q.recvs.front().on_done));
    const Bytes bytes = q.sends.front().bytes;
    q.sends.pop_front();
    q.recvs.pop_front();
    transport_.send(std::get<0>(key), std::get<1>(key), bytes, [done] {
      if (done->first) done->first();
      if (done->second) done->second();
    });
  }
  if (q.sends.empty() && q.recvs.empty()) pending_.erase(it);
}

std::vector<std::string> Rendezvous::unmatched() const {
  std::vector<std::string> report;
  for (const auto& [key, q] : pending_) {
    const auto& [src, dst, tag] = key;
    for (const Send& s : q.sends) {
      report.push_back("send " + std::to_string(src) + " -> " + std::to_string(dst) + " tag " +
                       std::to_string(tag) + in_parentheses(s.label) +
                       " has no matching receive");
    }
    for (const Recv& r : q.recvs) {
      report.push_back("receive " + std::to_string(dst) + " <- " + std::to_string(src) + " tag " +
                       std::to_string(tag) + in_parentheses(r.label) +
                       " has no matching send");
    }
  }
  return report;
}

}  // namespace commsim
