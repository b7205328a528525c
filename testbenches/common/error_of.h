// The message of the simtlm::Error that `f` throws, checking its kind; a
// test failure (and "") when it throws none.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "simtlm/error.h"

namespace simtlm::test {

template <typename F>
std::string error_of(ErrorKind kind, F&& f) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(static_cast<int>(e.kind()), static_cast<int>(kind)) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no simtlm::Error thrown";
  return "";
}

}  // namespace simtlm::test
