// A real single-node Slurm on localhost for the sweep's Slurm executor tests:
// munged (started as the munge user unless one runs already), slurmctld and
// slurmd with a private slurm.conf in a scratch folder, no cgroups and no
// accounting. The test's processes find it through SLURM_CONF.
//
// Needs root (slurmd starts jobs as their users) and Debian's slurmctld,
// slurmd, slurm-client and munge, which scripts/setup.sh installs.
#pragma once

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "testbenches/cli/cli_harness.h"

namespace simtlm::test {

class SlurmCluster {
 public:
  // "" when the cluster can run here, else why not (the test is skipped).
  static std::string unavailable() {
    for (const char* name : {"slurmctld", "slurmd", "sbatch", "squeue", "sinfo", "munged", "munge"})
      if (std::system(("command -v " + tool(name) + " >/dev/null 2>&1").c_str()) != 0)
        return std::string("Slurm is not installed (") + name + " missing; scripts/setup.sh installs slurmctld slurmd "
               "slurm-client munge)";
    if (::geteuid() != 0) return "starting slurmd needs root";
    return "";
  }

  // Starts the daemons; "" on success, else what went wrong.
  std::string start(const std::filesystem::path& dir) {
    dir_ = dir;
    namespace fs = std::filesystem;
    fs::create_directories(dir_ / "state");
    fs::create_directories(dir_ / "spool");
    if (std::system("munge -n 2>/dev/null | unmunge >/dev/null 2>&1") != 0) {
      // No munged yet: start one as its user, with its run folder.
      if (std::system(("mkdir -p /run/munge && chown munge:munge /run/munge && "
                      "runuser -u munge -- " + tool("munged")).c_str()) != 0)
        return "cannot start munged";
      munge_pid_ = read_pid("/run/munge/munged.pid");
      if (!wait_for("munge -n 2>/dev/null | unmunge >/dev/null 2>&1")) return "munged does not answer";
    }
    // Ports of this test process, so that two runs never share a controller.
    const int port = 20000 + static_cast<int>(::getpid() % 20000) * 2;
    char host[256] = {0};
    ::gethostname(host, sizeof host - 1);
    const std::string short_host = std::string(host).substr(0, std::string(host).find('.'));
    conf_ = dir_ / "slurm.conf";
    std::ofstream(conf_) << "ClusterName=simtlmtest\n"
                         << "SlurmctldHost=" << short_host << "(127.0.0.1)\n"
                         << "SlurmctldPort=" << port << "\nSlurmdPort=" << port + 1 << "\n"
                         << "SlurmUser=root\nSlurmdUser=root\nAuthType=auth/munge\n"
                         << "StateSaveLocation=" << (dir_ / "state").string() << "\n"
                         << "SlurmdSpoolDir=" << (dir_ / "spool").string() << "\n"
                         << "SlurmctldPidFile=" << (dir_ / "slurmctld.pid").string() << "\n"
                         << "SlurmdPidFile=" << (dir_ / "slurmd.pid").string() << "\n"
                         << "SlurmctldLogFile=" << (dir_ / "slurmctld.log").string() << "\n"
                         << "SlurmdLogFile=" << (dir_ / "slurmd.log").string() << "\n"
                         << "ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\n"
                         << "JobAcctGatherType=jobacct_gather/none\nAccountingStorageType=accounting_storage/none\n"
                         << "JobCompType=jobcomp/none\nMpiDefault=none\nSwitchType=switch/none\n"
                         << "SelectType=select/cons_tres\nSelectTypeParameters=CR_CPU\nReturnToService=2\n"
                         << "NodeName=" << short_host << " NodeAddr=127.0.0.1 CPUs=" << std::thread::hardware_concurrency()
                         << " State=UNKNOWN\n"
                         << "PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n";
    ::setenv("SLURM_CONF", conf_.c_str(), 1);
    const std::string f = " -f " + shell_quote(conf_.string());
    if (std::system((tool("slurmctld") + f).c_str()) != 0) return "slurmctld did not start:\n" + log("slurmctld.log");
    ctld_pid_ = read_pid(dir_ / "slurmctld.pid");
    if (std::system((tool("slurmd") + f).c_str()) != 0) return "slurmd did not start:\n" + log("slurmd.log");
    slurmd_pid_ = read_pid(dir_ / "slurmd.pid");
    if (!wait_for("sinfo -h -o %T 2>/dev/null | grep -qx idle"))
      return "the node did not become idle:\n" + log("slurmctld.log") + log("slurmd.log");
    return "";
  }

  // Stops the daemons; the folder (configuration, logs) stays if `keep`.
  void stop(bool keep) {
    for (pid_t* pid : {&slurmd_pid_, &ctld_pid_, &munge_pid_}) {
      if (*pid <= 0) continue;
      ::kill(*pid, SIGTERM);
      for (int i = 0; i < 100 && alive(*pid); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
      if (alive(*pid)) ::kill(*pid, SIGKILL);
      *pid = 0;
    }
    ::unsetenv("SLURM_CONF");
    std::error_code ec;
    if (!keep && !dir_.empty()) std::filesystem::remove_all(dir_, ec);
  }

  std::string log(const std::string& name) const { return read_text(dir_ / name); }
  const std::filesystem::path& dir() const { return dir_; }

 private:
  // The daemons live in /usr/sbin, which a user's PATH may lack.
  static std::string tool(const std::string& name) {
    const std::string sbin = "/usr/sbin/" + name;
    return ::access(sbin.c_str(), X_OK) == 0 ? sbin : name;
  }
  static pid_t read_pid(const std::filesystem::path& file) {
    for (int i = 0; i < 100; ++i) {
      std::ifstream in(file);
      pid_t pid = 0;
      if (in >> pid && pid > 0) return pid;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return 0;
  }
  // Running and not a zombie (a daemon's parent here may never reap it).
  static bool alive(pid_t pid) {
    const std::string stat = read_text("/proc/" + std::to_string(pid) + "/stat");
    const size_t close = stat.rfind(')');
    return close != std::string::npos && close + 2 < stat.size() && stat[close + 2] != 'Z';
  }
  static bool wait_for(const std::string& command) {
    for (int i = 0; i < 150; ++i) {
      if (std::system(command.c_str()) == 0) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    return false;
  }

  std::filesystem::path dir_, conf_;
  pid_t munge_pid_ = 0, ctld_pid_ = 0, slurmd_pid_ = 0;
};

}  // namespace simtlm::test
