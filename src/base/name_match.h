#pragma once
// Matching the names a user types against the names commsim knows. Spellings that differ
// only in case, '_' and '-' are one name, so nccl-tests' all_reduce, Chakra's ALL_REDUCE and
// AllReduce all read as allreduce; a name that matches nothing gets the closest known names
// as a suggestion ("did you mean ...?"), the way git and cargo suggest a command.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace commsim {

/// The name lower-cased, without '_' and '-': the key that the spellings of a name share.
std::string loose_name(std::string_view name);
/// Whether `a` and `b` differ only in case, '_' and '-'.
bool same_loose_name(std::string_view a, std::string_view b);

/// Levenshtein distance: the fewest one-character insertions, deletions and substitutions
/// that turn `a` into `b`. O(|a| |b|) time, O(|b|) space.
std::size_t edit_distance(std::string_view a, std::string_view b);

/// Up to three of `names` the user may have meant by `given`, best first, compared as loose
/// names: those within edit distance 2 of it (and nearer than its length, so that 'xy' is not
/// taken for 'tp'), and those it is part of ('recursive' of 'recursive-halving'). The nearer
/// first; at equal distance, in the order of `names`.
std::vector<std::string_view> closest_names(std::string_view given, const std::vector<std::string_view>& names);

/// " (did you mean 'ring'?)", " (did you mean 'ring' or 'tree'?)", or "" when no name is close.
std::string did_you_mean(std::string_view given, const std::vector<std::string_view>& names);
/// The same for command-line options, `names` without their dashes: " (did you mean --npus?)".
std::string did_you_mean_option(std::string_view given, const std::vector<std::string_view>& names);

/// "<what>: unknown <noun> '<given>' (did you mean 'x'?) (known: a, b, c)": the one message of
/// a name that is not in a list.
std::string unknown_name_message(std::string_view what, std::string_view noun, std::string_view given,
                                 const std::vector<std::string_view>& names);

}  // namespace commsim
