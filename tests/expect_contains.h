#pragma once
// EXPECT_CONTAINS(text, fragment): fails, printing the whole text, unless `text` (a
// std::string or what one is made from) holds `fragment` (a string or a character).

#include <gtest/gtest.h>

#include <string>

#define EXPECT_CONTAINS(text, fragment) EXPECT_NE(std::string(text).find(fragment), std::string::npos) << (text)
