// Formulas of the statistics tree: a small expression language parsed once at
// registration and evaluated over a captured set of values at dump time.
//
//   expr    := term (('+' | '-') term)*
//   term    := unary (('*' | '/') unary)*
//   unary   := '-' unary | primary
//   primary := number | name | agg '(' pattern ')' | '(' expr ')'
//   agg     := sum | avg | min | max | count
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <memory>
#include <string>

#include "models/common/stats_detail.h"
#include "simtlm/stats.h"

namespace simtlm::stats {

struct Registry::Expr {
  enum class Op { Number, Name, Neg, Add, Sub, Mul, Div, Sum, Avg, Min, Max, Count };
  Op op = Op::Number;
  double number = 0.0;
  bool integer_literal = false;  // Number written with digits only ("8", not "8.0" or "1e3")
  std::string name;  // Name: a statistic; aggregates: a pattern
  std::unique_ptr<Expr> lhs, rhs;
};

namespace {

using Expr = Registry::Expr;

bool name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '*'; }
bool name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '[' || c == ']' || c == '*';
}

class Parser {
 public:
  Parser(const std::string& text, const std::string& owner) : s_(text), owner_(owner) {}

  std::unique_ptr<Expr> parse() {
    auto e = expr();
    skip();
    if (i_ != s_.size()) fail("unexpected '" + std::string(1, s_[i_]) + "'");
    return e;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw Error(ErrorKind::Internal, "statistics formula '" + owner_ + "' = \"" + s_ + "\": " + what +
                                         " at column " + std::to_string(i_ + 1));
  }

  void skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }

  bool eat(char c) {
    skip();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }

  static std::unique_ptr<Expr> binary(Expr::Op op, std::unique_ptr<Expr> l, std::unique_ptr<Expr> r) {
    auto e = std::make_unique<Expr>();
    e->op = op;
    e->lhs = std::move(l);
    e->rhs = std::move(r);
    return e;
  }

  std::unique_ptr<Expr> expr() {
    auto e = term();
    for (;;) {
      if (eat('+')) {
        e = binary(Expr::Op::Add, std::move(e), term());
      } else if (eat('-')) {
        e = binary(Expr::Op::Sub, std::move(e), term());
      } else {
        return e;
      }
    }
  }

  std::unique_ptr<Expr> term() {
    auto e = unary();
    for (;;) {
      if (eat('*')) {
        e = binary(Expr::Op::Mul, std::move(e), unary());
      } else if (eat('/')) {
        e = binary(Expr::Op::Div, std::move(e), unary());
      } else {
        return e;
      }
    }
  }

  std::unique_ptr<Expr> unary() {
    if (eat('-')) {
      auto e = std::make_unique<Expr>();
      e->op = Expr::Op::Neg;
      e->lhs = unary();
      return e;
    }
    return primary();
  }

  std::string name_token() {
    const std::size_t start = i_;
    while (i_ < s_.size() && name_char(s_[i_])) ++i_;
    return s_.substr(start, i_ - start);
  }

  std::unique_ptr<Expr> primary() {
    skip();
    if (i_ >= s_.size()) fail("expression ends early");
    const char c = s_[i_];
    if (c == '(') {
      ++i_;
      auto e = expr();
      if (!eat(')')) fail("expected ')'");
      return e;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && i_ + 1 < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_ + 1])))) {
      const char* begin = s_.c_str() + i_;
      char* end = nullptr;
      const double x = std::strtod(begin, &end);
      i_ += static_cast<std::size_t>(end - begin);
      auto e = std::make_unique<Expr>();
      e->op = Expr::Op::Number;
      e->number = x;
      e->integer_literal = std::all_of(begin, static_cast<const char*>(end),
                                       [](char d) { return std::isdigit(static_cast<unsigned char>(d)) != 0; });
      return e;
    }
    if (!name_start(c)) fail("expected a number, a statistic name or '('");
    const std::size_t at = i_;
    const std::string word = name_token();
    skip();
    if (i_ < s_.size() && s_[i_] == '(') {
      Expr::Op op;
      if (word == "sum") {
        op = Expr::Op::Sum;
      } else if (word == "avg") {
        op = Expr::Op::Avg;
      } else if (word == "min") {
        op = Expr::Op::Min;
      } else if (word == "max") {
        op = Expr::Op::Max;
      } else if (word == "count") {
        op = Expr::Op::Count;
      } else {
        i_ = at;
        fail("unknown function '" + word + "' (sum, avg, min, max, count)");
      }
      ++i_;
      skip();
      const std::size_t pat_at = i_;
      const std::string pattern = name_token();
      if (pattern.empty()) fail("expected a statistic name pattern");
      if (!detail::valid_name(wildcards_as_names(pattern))) {
        i_ = pat_at;
        fail("malformed pattern '" + pattern + "'");
      }
      if (!eat(')')) fail("expected ')'");
      auto e = std::make_unique<Expr>();
      e->op = op;
      e->name = pattern;
      return e;
    }
    if (word.find('*') != std::string::npos) {
      i_ = at;
      fail("wildcards are only allowed inside sum/avg/min/max/count");
    }
    if (!detail::valid_name(word)) {
      i_ = at;
      fail("malformed statistic name '" + word + "'");
    }
    auto e = std::make_unique<Expr>();
    e->op = Expr::Op::Name;
    e->name = word;
    return e;
  }

  // Check a pattern's shape with the name rules: "[*]" -> "[0]", "*" segment -> "x".
  static std::string wildcards_as_names(const std::string& pattern) {
    std::string out;
    for (std::size_t k = 0; k < pattern.size(); ++k) {
      if (pattern.compare(k, 3, "[*]") == 0) {
        out += "[0]";
        k += 2;
      } else if (pattern[k] == '*') {
        out += 'x';
      } else {
        out += pattern[k];
      }
    }
    return out;
  }

  const std::string& s_;
  const std::string& owner_;
  std::size_t i_ = 0;
};

}  // namespace

namespace detail {

std::shared_ptr<const Registry::Expr> parse_formula(const std::string& text, const std::string& owner) {
  Parser p(text, owner);
  return std::shared_ptr<const Registry::Expr>(p.parse().release());
}

}  // namespace detail

double Registry::eval(const Expr& e, const Values& v, std::vector<std::size_t>& stack) const {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  switch (e.op) {
    case Expr::Op::Number: return e.number;
    case Expr::Op::Name: {
      const auto it = ids_.find(e.name);
      if (it == ids_.end()) {
        const std::string owner = stack.empty() ? std::string("<expression>") : infos_[stack.back()].name;
        throw Error(ErrorKind::Internal, "statistics formula '" + owner + "' uses unknown statistic '" + e.name + "'");
      }
      return scalar_value(it->second, v, stack);
    }
    case Expr::Op::Neg: return -eval(*e.lhs, v, stack);
    case Expr::Op::Add: return eval(*e.lhs, v, stack) + eval(*e.rhs, v, stack);
    case Expr::Op::Sub: return eval(*e.lhs, v, stack) - eval(*e.rhs, v, stack);
    case Expr::Op::Mul: return eval(*e.lhs, v, stack) * eval(*e.rhs, v, stack);
    case Expr::Op::Div: {
      const double num = eval(*e.lhs, v, stack), den = eval(*e.rhs, v, stack);
      return den == 0.0 ? nan : num / den;
    }
    case Expr::Op::Sum:
    case Expr::Op::Avg:
    case Expr::Op::Min:
    case Expr::Op::Max:
    case Expr::Op::Count: {
      double total = 0.0, lo = nan, hi = nan;
      std::size_t n = 0;
      auto take = [&](double x) {
        total += x;
        lo = n == 0 ? x : std::min(lo, x);
        hi = n == 0 ? x : std::max(hi, x);
        ++n;
      };
      for (std::size_t id : match_ids(e.name)) {
        const Shape shape = infos_[id].shape;
        if (shape == Shape::VecU64 || shape == Shape::VecF64) {
          if (id >= v.samples_.size()) continue;
          if (const auto* vu = std::get_if<std::vector<std::uint64_t>>(&v.samples_[id])) {
            for (std::uint64_t x : *vu) take(static_cast<double>(x));
          } else if (const auto* vd = std::get_if<std::vector<double>>(&v.samples_[id])) {
            for (double x : *vd) take(x);
          }
        } else {
          take(scalar_value(id, v, stack));
        }
      }
      switch (e.op) {
        case Expr::Op::Sum: return total;
        case Expr::Op::Avg: return n == 0 ? nan : total / static_cast<double>(n);
        case Expr::Op::Min: return lo;
        case Expr::Op::Max: return hi;
        default: return static_cast<double>(n);
      }
    }
  }
  return nan;
}

bool Registry::integral(std::size_t id) const {
  if (integral_cache_.size() != infos_.size()) integral_cache_.assign(infos_.size(), -1);
  if (integral_cache_[id] < 0) {
    std::vector<std::size_t> stack;
    const Shape shape = infos_[id].shape;
    bool yes = shape == Shape::U64 || shape == Shape::VecU64;
    if (shape == Shape::Formula) {
      stack.push_back(id);
      yes = integral_expr(*formulas_[id], stack);
    }
    integral_cache_[id] = yes ? 1 : 0;
  }
  return integral_cache_[id] == 1;
}

// The type follows from the expression and the statistics it names, never
// from a value: a field is an integer in every dump or in none.
bool Registry::integral_expr(const Expr& e, std::vector<std::size_t>& stack) const {
  const auto named = [&](std::size_t id) {
    if (infos_[id].shape != Shape::Formula) return integral(id);
    if (std::find(stack.begin(), stack.end(), id) != stack.end()) return false;  // a cycle: eval reports it
    stack.push_back(id);
    const bool yes = integral_expr(*formulas_[id], stack);
    stack.pop_back();
    return yes;
  };
  switch (e.op) {
    case Expr::Op::Number: return e.integer_literal;
    case Expr::Op::Name: {
      const auto it = ids_.find(e.name);
      return it != ids_.end() && named(it->second);
    }
    case Expr::Op::Neg: return integral_expr(*e.lhs, stack);
    case Expr::Op::Add:
    case Expr::Op::Sub:
    case Expr::Op::Mul: return integral_expr(*e.lhs, stack) && integral_expr(*e.rhs, stack);
    case Expr::Op::Div:
    case Expr::Op::Avg: return false;
    case Expr::Op::Count: return true;
    case Expr::Op::Sum:
    case Expr::Op::Min:
    case Expr::Op::Max: {
      const std::vector<std::size_t>& ids = match_ids(e.name);
      for (std::size_t id : ids)
        if (!named(id)) return false;
      return true;
    }
  }
  return false;
}

}  // namespace simtlm::stats
