// The plan of a sweep (`simtlm sweep`): the spec expanded into a table of
// rows (workloads and user kernels) x columns (configurations), each cell a
// point of simulation. A point is identified by a hash of everything that
// determines its result, so two cells with the same effective configuration
// share one point, and a rerun finds the points it has already done.
//
// The plan is written to OUT/plan.json before anything runs; the executors
// (local pool, Slurm tasks), `sweep status` and `sweep report` read it back,
// so nothing after the planning step needs the spec or its files again.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace simtlm::cli::sweep {

using Json = nlohmann::ordered_json;

// One simulation: `simtlm <args> --config <dir>/input-config.json --out <dir>`.
struct PlanPoint {
  std::string hash;               // 16 hex digits of the identity's FNV-1a hash
  Json identity;                  // what the hash covers (written as point.json)
  std::vector<std::string> args;  // simtlm arguments, without --config and --out
  Json config;                    // the effective configuration (input-config.json)
};

// A row of the tables: a built-in workload or a user kernel.
struct PlanRow {
  std::string label;     // unique; the row heading
  std::string workload;  // built-in workload name, or "" for a user kernel
  std::string size;      // "small" | "default" (workloads)
  uint64_t seed = 1;     // (workloads)
  std::string kernel;    // user kernel: kernel name and files
  std::string ptx, launch;
  std::vector<std::string> args;  // workload run arguments, "key=value" (`simtlm run --arg`)
};

// A column: one value of every dimension (the base configuration, then each axis).
struct PlanColumn {
  std::string label;                                     // the column heading
  std::vector<std::pair<std::string, std::string>> values;  // dimension -> value text
};

struct Plan {
  std::string name;
  std::string spec_file;                 // as given on the command line
  std::string build;                     // build id of the simtlm that planned it (sweep_points.h)
  std::vector<std::string> dimensions;   // "config", then the axis keys in spec order
  std::vector<std::string> numeric_axes; // axes whose values are all numbers
  std::vector<std::vector<std::string>> zips;  // groups of axes that advance together
  std::vector<PlanRow> rows;
  std::vector<PlanColumn> columns;
  size_t baseline = 0;                   // index into columns
  std::vector<std::pair<std::string, std::string>> metrics;  // short name -> stats.json path
  std::string plot_metric;               // metric of the grouped-bar plot
  std::string plot_axis;                 // numeric axis of the line plot ("" = none)
  double point_timeout = 0;              // seconds, 0 = none
  std::vector<PlanPoint> points;         // unique, in first-use order
  std::vector<std::vector<size_t>> cells;  // [row][column] -> index into points

  const PlanPoint* find(const std::string& hash) const;
};

// Reads, validates and expands SPEC.json (Error(Input)/Error(Config) naming
// the spec file and the field). The simtlm version and build id (of the
// program that will run the points) enter every point's hash.
Plan plan_from_spec(const std::string& spec_path, const std::string& simtlm_version, const std::string& build);

Json plan_to_json(const Plan& plan);
Plan plan_from_json(const Json& json, const std::string& origin);
// OUT/plan.json.
void save_plan(const std::filesystem::path& out_dir, const Plan& plan);
Plan load_plan(const std::filesystem::path& out_dir);

// 64-bit FNV-1a as 16 lower-case hex digits (stable across hosts and builds).
std::string fnv1a_hex(const std::string& bytes);

// The text form of a JSON scalar as -p takes it ("gto", "32", "true").
std::string value_text(const Json& value);

}  // namespace simtlm::cli::sweep
