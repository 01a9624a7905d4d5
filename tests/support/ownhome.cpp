// Every test executable runs with a HOME and XDG folders of its own, also
// when a person runs it by hand rather than through ctest: its settings,
// profiles, journals and history never reach the real ones (and never make
// a suite that runs beside it fail its guard, which judges what appeared
// under the real HOME). ctest gives each test its folders in the build and
// says so with BLOCKTUNE_TEST_ISOLATED=1 (tests/CMakeLists.txt); without it
// this makes a folder under /tmp before main() and removes it at exit.
#include <cstdio>
#include <cstdlib>
#include <ftw.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace {

int removeEntry(const char *path, const struct stat *, int, struct FTW *)
{
    ::remove(path);
    return 0;
}

struct OwnHome
{
    std::string dir;
    pid_t owner = 0;

    OwnHome()
    {
        const char *isolated = std::getenv("BLOCKTUNE_TEST_ISOLATED");
        if (isolated && std::string(isolated) == "1")
            return;
        char path[] = "/tmp/blocktune-test-home-XXXXXX";
        if (!::mkdtemp(path)) {
            std::perror("blocktune test: cannot make a HOME of its own under /tmp");
            std::exit(1);
        }
        dir = path;
        owner = ::getpid();
        for (const char *sub : {"/.local", "/.local/share", "/.config", "/.cache", "/runtime"}) {
            if (::mkdir((dir + sub).c_str(), 0700) != 0) {
                std::perror(("blocktune test: cannot make " + dir + sub).c_str());
                std::exit(1);
            }
        }
        ::setenv("HOME", dir.c_str(), 1);
        ::setenv("XDG_DATA_HOME", (dir + "/.local/share").c_str(), 1);
        ::setenv("XDG_CONFIG_HOME", (dir + "/.config").c_str(), 1);
        ::setenv("XDG_CACHE_HOME", (dir + "/.cache").c_str(), 1);
        ::setenv("XDG_RUNTIME_DIR", (dir + "/runtime").c_str(), 1);
        ::setenv("BLOCKTUNE_HISTORY_DB", (dir + "/history.sqlite").c_str(), 1);
        // The programs a test starts (the CLI, the helper) inherit these.
        ::setenv("BLOCKTUNE_TEST_ISOLATED", "1", 1);
        std::fprintf(stderr, "blocktune test: run outside ctest: HOME and XDG folders under %s (removed at exit)\n",
                     dir.c_str());
    }

    ~OwnHome()
    {
        // A child that forked and exits does not remove its parent's folder.
        if (!dir.empty() && ::getpid() == owner)
            ::nftw(dir.c_str(), removeEntry, 16, FTW_DEPTH | FTW_PHYS);
    }
};

OwnHome ownHome;

} // namespace
