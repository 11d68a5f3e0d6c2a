// Names typed by users: any spelling that differs in case, '_' and '-' is the name; an
// unknown one gets the closest known names, nearest first.

#include "base/name_match.h"

#include <gtest/gtest.h>

#include <cctype>

#include "base/collectives.h"
#include "base/error.h"
#include "base/name_table.h"

namespace commsim {
namespace {

using Names = std::vector<std::string_view>;

TEST(EditDistance, CountsInsertionsDeletionsAndSubstitutions) {
  EXPECT_EQ(edit_distance("", ""), 0u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);  // three insertions
  EXPECT_EQ(edit_distance("abc", ""), 3u);
  // kitten -> sitten (k/s) -> sittin (e/i) -> sitting (+g): the textbook 3.
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("sitting", "kitten"), 3u);
  // A transposition is two substitutions in Levenshtein's count: rign -> ring swaps g and n.
  EXPECT_EQ(edit_distance("rign", "ring"), 2u);
  EXPECT_EQ(edit_distance("npu", "npus"), 1u);
  EXPECT_EQ(edit_distance("flaw", "lawn"), 2u);  // -f, +n
}

TEST(LooseName, IgnoresCaseUnderscoresAndDashes) {
  EXPECT_EQ(loose_name("All_Reduce"), "allreduce");
  EXPECT_EQ(loose_name("ring-bidir"), "ringbidir");
  EXPECT_TRUE(same_loose_name("ALL_TO_ALL", "alltoall"));
  EXPECT_TRUE(same_loose_name("1F1B", "1f1b"));
  EXPECT_FALSE(same_loose_name("all reduce", "allreduce"));  // a space is not a separator
  EXPECT_FALSE(same_loose_name("ring", "rings"));
}

TEST(ClosestNames, NearestFirstAtMostThree) {
  // tree is one insertion from 'tre', three two: the nearer first, whatever the list's order.
  EXPECT_EQ(closest_names("tre", {"three", "tree", "ring"}), (Names{"tree", "three"}));
  // Four names at distance 1: the first three, in the list's order.
  EXPECT_EQ(closest_names("xp", {"tp", "cp", "dp", "pp"}), (Names{"tp", "cp", "dp"}));
  EXPECT_EQ(closest_names("rign", {"ring", "ring-bidir", "tree"}), (Names{"ring"}));
  // Compared as loose names: Ring_Bidr is ringbidr, one letter short of ringbidir.
  EXPECT_EQ(closest_names("Ring_Bidr", {"ring", "ring-bidir"}), (Names{"ring-bidir"}));
}

TEST(ClosestNames, PartsOfLongerNames) {
  // 'recursive' is 7 and 8 letters from these, beyond distance 2, but a part of both.
  EXPECT_EQ(closest_names("recursive", {"ring", "recursive-doubling", "recursive-halving"}),
            (Names{"recursive-halving", "recursive-doubling"}));
  EXPECT_EQ(closest_names("gpus", {"gpus-per-node", "nodes"}), (Names{"gpus-per-node"}));
}

TEST(ClosestNames, NothingForShortOrFarNames) {
  // 'xy' is two substitutions from 'tp', but that is all of it: not a typo of tp.
  EXPECT_TRUE(closest_names("xy", {"tp"}).empty());
  // One letter is part of too many names to suggest any.
  EXPECT_TRUE(closest_names("r", {"ring", "tree"}).empty());
  EXPECT_TRUE(closest_names("butterfly", {"ring", "tree", "direct"}).empty());
  EXPECT_TRUE(closest_names("", {"ring"}).empty());
}

TEST(DidYouMean, OneTwoOrThreeNamesOrNothing) {
  EXPECT_EQ(did_you_mean("rign", {"ring", "tree"}), " (did you mean 'ring'?)");
  EXPECT_EQ(did_you_mean("tre", {"three", "tree"}), " (did you mean 'tree' or 'three'?)");
  EXPECT_EQ(did_you_mean("xp", {"tp", "cp", "dp", "pp"}), " (did you mean 'tp', 'cp' or 'dp'?)");
  EXPECT_EQ(did_you_mean("zzzz", {"ring", "tree"}), "");
  EXPECT_EQ(did_you_mean_option("--npu", {"topology", "npus", "sizes"}), " (did you mean --npus?)");
}

TEST(UnknownNameMessage, NamesWhatTheValueTheSuggestionAndTheList) {
  EXPECT_EQ(unknown_name_message("--algorithm", "algorithm", "rign", {"ring", "tree"}),
            "--algorithm: unknown algorithm 'rign' (did you mean 'ring'?) (known: ring, tree)");
  EXPECT_EQ(unknown_name_message("--library", "library", "mpich", {"ideal", "nccl", "gloo"}),
            "--library: unknown library 'mpich' (known: ideal, nccl, gloo)");
}

enum class Color { kRed, kDarkBlue };

constexpr NameTable<Color, 2> kColors{{{Color::kRed, "red"}, {Color::kDarkBlue, "dark-blue"}}};

TEST(NameTable, TakesAnySpellingPrintsItsOwn) {
  EXPECT_EQ(value_in(kColors, "dark-blue"), Color::kDarkBlue);
  EXPECT_EQ(value_in(kColors, "DARK_BLUE"), Color::kDarkBlue);
  EXPECT_EQ(value_in(kColors, "DarkBlue"), Color::kDarkBlue);
  EXPECT_EQ(value_in(kColors, "Red"), Color::kRed);
  EXPECT_EQ(value_in(kColors, "dark blue"), std::nullopt);
  EXPECT_EQ(name_in(kColors, Color::kDarkBlue), "dark-blue");
  EXPECT_TRUE(loose_names_distinct(kColors));
}

TEST(NameTable, ParseInThrowsTheSharedMessage) {
  try {
    parse_in(kColors, "rde", "--color", "color");
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "--color: unknown color 'rde' (did you mean 'red'?) (known: red, dark-blue)");
  }
}

TEST(NameTable, NamesThatCollideTakeOnlyTheirOwnSpelling) {
  // 'a-b' and 'ab' are one loose name: 'AB' could mean either, so a table like this is a bug
  // the first time a spelling other than its own is looked up.
  constexpr NameTable<Color, 2> colliding{{{Color::kRed, "a-b"}, {Color::kDarkBlue, "ab"}}};
  EXPECT_FALSE(loose_names_distinct(colliding));
  EXPECT_EQ(value_in(colliding, "a-b"), Color::kRed);
  EXPECT_EQ(value_in(colliding, "ab"), Color::kDarkBlue);
  EXPECT_THROW(value_in(colliding, "AB"), InternalError);
}

TEST(NameTable, CollectivesInNcclTestsAndChakraSpellings) {
  for (const char* name : {"allreduce", "all_reduce", "ALL_REDUCE", "AllReduce", "all-reduce"}) {
    EXPECT_EQ(collective_from_name(name), CollectiveKind::kAllReduce) << name;
  }
  EXPECT_EQ(collective_from_name("reduce_scatter"), CollectiveKind::kReduceScatter);
  EXPECT_EQ(collective_from_name("ALL_TO_ALL"), CollectiveKind::kAllToAll);
  EXPECT_EQ(collective_from_name("AllGather"), CollectiveKind::kAllGather);
  EXPECT_EQ(algorithm_from_name("Ring"), AlgorithmKind::kRing);
  EXPECT_EQ(algorithm_from_name("RING_BIDIR"), AlgorithmKind::kRingBidir);
  EXPECT_EQ(algorithm_from_name("NVLSTree"), AlgorithmKind::kNvlsTree);
  // Every name upper-cased is itself: no two names of either table collide.
  for (const CollectiveKind kind : all_collectives()) {
    std::string upper(collective_name(kind));
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    EXPECT_EQ(collective_from_name(upper), kind) << upper;
  }
  for (const AlgorithmKind kind : all_algorithms()) {
    std::string upper(algorithm_name(kind));
    for (char& c : upper) c = c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    EXPECT_EQ(algorithm_from_name(upper), kind) << upper;
  }
}

}  // namespace
}  // namespace commsim
