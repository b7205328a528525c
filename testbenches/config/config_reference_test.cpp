// Generated text: `config describe` and docs/config-reference.md (from the
// module fragments and the configs/*.json presets). With SIMTLM_REGENERATE=1
// the Generated test rewrites the committed file instead of comparing it
// (scripts/gen_config_reference.sh does that).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "simtlm/config.h"

namespace {

using simtlm::Config;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + what.size())) ++n;
  return n;
}

TEST(ConfigReference, MarkdownHasOneRowPerKeyWithBothPresetValues) {
  const std::string md = Config::reference_markdown();
  for (const simtlm::ConfigKey& k : simtlm::config_schema()) {
    EXPECT_EQ(count(md, "| `" + k.path + "` |"), 1u) << k.path;
  }
  EXPECT_NE(md.find("| Key | Type | Default | Unit | Range | gtx285_ccws | gtx480 | gtx980_finereg | tesla_c2050 | vws_table61 | vws_ws32 | vws_ws4 | Description | Source |"), std::string::npos);
  // A row shows every preset's value: gpu.num_sms is 30 on gtx285_ccws, 15 on
  // GTX480, 16 on gtx980_finereg and 14 on C2050.
  const std::size_t row = md.find("| `gpu.num_sms` |");
  const std::string line = md.substr(row, md.find('\n', row) - row);
  EXPECT_NE(line.find("| 15 | SMs | [1, 1024] | 30 | 15 | 16 | 14 |"), std::string::npos) << line;
  EXPECT_NE(line.find("Jatala Table 2.3"), std::string::npos) << line;
  EXPECT_NE(md.find("## Decisions"), std::string::npos);
  EXPECT_NE(md.find("## Cross-key rules"), std::string::npos);
  // Enum cells escape the table separator.
  EXPECT_NE(md.find("lrr \\| gto \\| two_level"), std::string::npos);
}

TEST(ConfigReference, DescribeListsEveryKey) {
  const std::string d = Config::describe();
  for (const simtlm::ConfigKey& k : simtlm::config_schema()) {
    EXPECT_NE(d.find("  " + k.path + "  ("), std::string::npos) << k.path;
  }
  EXPECT_NE(d.find("gpu.num_sms  (uint) default 15 SMs  [1, 1024]  gtx285_ccws: 30  gtx980_finereg: 16  tesla_c2050: 14"), std::string::npos);
}

TEST(ConfigReference, PresetJsonStartsWithCommentAndLoads) {
  const std::string text = Config::preset_json("tesla_c2050");
  EXPECT_EQ(text.rfind("{\n  \"$comment\": \"simtlm preset 'tesla_c2050'", 0), 0u) << text.substr(0, 80);
  Config c;
  c.load_string(text, "tesla_c2050.json");
  EXPECT_TRUE(c == Config::preset("tesla_c2050"));
}

TEST(ConfigReference, VwsSyncVariantsAreBuiltValues) {
  // gpu.vws.reform's sync-wait variants were planned values; now built.
  const std::string d = Config::describe();
  EXPECT_EQ(d.find("not built yet: sync10"), std::string::npos);
  EXPECT_NE(d.find("sync10"), std::string::npos);
  const std::string md = Config::reference_markdown();
  EXPECT_EQ(md.find("not built yet: sync10"), std::string::npos);
}

TEST(ConfigReference, PresetTableComesFromThePresetFiles) {
  const std::string md = Config::reference_markdown();
  EXPECT_NE(md.find("| tesla_c2050 | `configs/tesla_c2050.json` | NVIDIA Tesla C2050"), std::string::npos);
  EXPECT_NE(md.find("| gtx480 | `configs/gtx480.json` | NVIDIA GeForce GTX 480"), std::string::npos);
}

TEST(ConfigReference, GeneratedFilesAreUpToDate) {
  const std::string root = SIMTLM_SOURCE_DIR;
  struct File {
    std::string path, text;
  };
  // The presets are sources now (configs/*.json), not generated; the reference
  // shows their values, so it goes stale when a preset or a fragment changes.
  std::vector<File> files = {{root + "/docs/config-reference.md", Config::reference_markdown()}};
  const char* regen = std::getenv("SIMTLM_REGENERATE");
  for (const File& f : files) {
    if (regen && std::string(regen) == "1") {
      std::ofstream(f.path, std::ios::binary) << f.text;
    }
    EXPECT_EQ(read_file(f.path), f.text) << f.path << " is stale: run scripts/gen_config_reference.sh";
  }
}

}  // namespace
