package sigtest

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// A process started ignoring SIGINT that calls HearCtrlC starts its own
// children with SIGINT at its default; without it they would ignore it.
func TestHearCtrlC(t *testing.T) {
	if mode := os.Getenv("PARLEY_SIGTEST_CHILD"); mode != "" {
		if mode == "hear" {
			HearCtrlC()
		}
		// The grandchild says whether it ignores SIGINT (bit 2 of SigIgn).
		out, err := exec.Command("sh", "-c", "grep SigIgn /proc/$$/status").Output()
		if err != nil {
			os.Exit(2)
		}
		mask, err := strconv.ParseUint(strings.TrimSpace(strings.TrimPrefix(string(out), "SigIgn:")), 16, 64)
		if err != nil {
			os.Exit(2)
		}
		if mask&(1<<1) != 0 {
			os.Exit(3) // ignored
		}
		os.Exit(0)
	}
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc to read a process's ignored signals from")
	}
	t.Parallel()
	for mode, want := range map[string]int{"hear": 0, "not": 3} {
		cmd := exec.Command("sh", "-c", `trap "" INT; exec "$0" "$@"`, os.Args[0], "-test.run=^TestHearCtrlC$")
		cmd.Env = append(os.Environ(), "PARLEY_SIGTEST_CHILD="+mode)
		err := cmd.Run()
		if got := cmd.ProcessState.ExitCode(); got != want {
			t.Errorf("%s: the grandchild's exit %d (%v), want %d (0: SIGINT at its default, 3: ignored)", mode, got, err, want)
		}
	}
}
