package benchcmd

import (
	"testing"
	"time"

	"github.com/parleyhq/parley/cmd/internal/cmdtest"
	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/internal/bench"
)

// TestBenchOptionsAreCheckedFirst: a benchmark asked for something it
// cannot measure is a usage error (exit 2) before anything is measured,
// and what it can measure reaches its run function as given.
func TestBenchOptionsAreCheckedFirst(t *testing.T) {
	refused := map[string][]string{
		"gate":      {"--duration", "0s"},
		"consensus": {"--records", "0"},
		"messenger": {"--transport", "carrier-pigeon"},
		"debate":    {"--backends", "file,smoke-signal"},
		"cli":       {"--interval", "0s"},
	}
	never := func(name string) error {
		t.Errorf("bench %s: refused options reached the run function", name)
		return nil
	}
	for name, args := range refused {
		var code int
		switch name {
		case "gate":
			code = cmdtest.Exit(NewCmdGate(cmdtest.Factory(), func(*GateOptions) error { return never(name) }), args...)
		case "consensus":
			code = cmdtest.Exit(NewCmdConsensus(cmdtest.Factory(), func(*ConsensusOptions) error { return never(name) }), args...)
		case "messenger":
			code = cmdtest.Exit(NewCmdMessenger(cmdtest.Factory(), func(*MessengerOptions) error { return never(name) }), args...)
		case "debate":
			code = cmdtest.Exit(NewCmdDebate(cmdtest.Factory(), func(*DebateOptions) error { return never(name) }), args...)
		case "cli":
			code = cmdtest.Exit(NewCmdCLI(cmdtest.Factory(), func(*CLIOptions) error { return never(name) }), args...)
		}
		if code != cmdutil.ExitUsage {
			t.Errorf("bench %s %q: exit %d, want 2", name, args, code)
		}
	}

	var gate *GateOptions
	if code := cmdtest.Exit(NewCmdGate(cmdtest.Factory(), func(o *GateOptions) error { gate = o; return nil }), "--duration", "250ms"); code != cmdutil.ExitOK || gate == nil || gate.Duration != 250*time.Millisecond {
		t.Errorf("bench gate: exit %d, options %+v", code, gate)
	}
	var debate *DebateOptions
	if code := cmdtest.Exit(NewCmdDebate(cmdtest.Factory(), func(o *DebateOptions) error { debate = o; return nil }),
		"--backends", "file,nats", "--nats-url", "nats://10.0.0.7:4222", "--rounds", "3"); code != cmdutil.ExitOK || debate == nil {
		t.Fatalf("bench debate: exit %d", code)
	}
	if got := debate.Bench.Backends; len(got) != 2 || got[0].Name != bench.BackendFile || got[1].Name != bench.BackendNATS || got[1].NATSURL != "nats://10.0.0.7:4222" || debate.Bench.Rounds != 3 {
		t.Errorf("bench debate: backends %+v, rounds %d", got, debate.Bench.Rounds)
	}
	var cli *CLIOptions
	if code := cmdtest.Exit(NewCmdCLI(cmdtest.Factory(), func(o *CLIOptions) error { cli = o; return nil }), "--senders", "4", "--floor", "/opt/floor"); code != cmdutil.ExitOK || cli == nil || cli.Bench.Senders != 4 || cli.Bench.Floor != "/opt/floor" || cli.partOfAll {
		t.Errorf("bench cli: exit %d, options %+v", code, cli)
	}
}
