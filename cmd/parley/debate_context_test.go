package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/debate"
)

// A proposal piped in is the debate's context, as a file named with
// --context is: git show main:docs/spec.md | parley debate run --context -
// (it was "open -: no such file or directory"). Standard input is read
// once: "-" twice, or with --gate -, is a usage error. An empty one (the
// command writing into the pipe failed) is refused: the critic conceded a
// proposal it was never shown, and the record said CONSENSUS_REACHED.
func TestDebateContextFromStandardInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	s := writeScripts(t, dir, map[string]string{"critic": concedingCritic, "proposer": holdingDefender})
	spec := "# Spec: idempotency keys\n\nKeys are UUIDv7 and expire after 24 h.\n"
	args := func(more ...string) []string {
		return append([]string{"--root", root, "--json", "debate", "run", "--layer", "spec", "--topic", "Idempotency keys",
			"--position", "Use UUIDv7 keys", "--workspace", dir,
			"--agent", "attacker=script:" + s["critic"], "--agent", "defender=script:" + s["proposer"]}, more...)
	}
	out, errs, code := runT(t, spec, args("--context", "-")...)
	if code != cmdutil.ExitOK {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	objs := lines(t, out)
	id := objs[len(objs)-1]["debate_id"].(string)
	events, err := openStore(t, root).Events(id)
	if err != nil {
		t.Fatal(err)
	}
	var opened debate.DebateSession
	if err := json.Unmarshal(events[0].Data, &opened); err != nil {
		t.Fatal(err)
	}
	want := []debate.ContextItem{{Kind: "text", Ref: "standard input", Text: spec}}
	if !slices.Equal(opened.Context, want) {
		t.Errorf("the debate's context %+v, want %+v", opened.Context, want)
	}

	for _, tc := range []struct {
		stdin string
		args  []string
		code  int
		want  string
	}{
		{spec, args("--context", "-", "--context", "-"), cmdutil.ExitUsage, `--context: "-" is named twice: standard input is read once`},
		{spec, args("--context", "-", "--gate", "-"), cmdutil.ExitUsage, "--gate - and --context - both read standard input: give one of them as a file"},
		// cat spec.md | …, where cat failed: no proposal, nothing to agree on.
		{"", args("--context", "-"), cmdutil.ExitError, "--context: standard input is empty (nothing but white space); hand the debate the proposal itself"},
	} {
		_, errs, code := runT(t, tc.stdin, tc.args...)
		if code != tc.code || strings.TrimSpace(errs) != "parley: "+tc.want {
			t.Errorf("%v: exit %d, %q; want exit %d, %q", tc.args[len(tc.args)-4:], code, errs, tc.code, tc.want)
		}
	}
	if out, _, _ := dcli(t, root, "--json", "debate", "list"); len(lines(t, out)) != 1 {
		t.Errorf("a refused debate was opened:\n%s", out)
	}
}
