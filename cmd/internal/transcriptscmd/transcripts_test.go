package transcriptscmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/cmd/internal/cmdtest"
	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/textview"
	"github.com/parleyhq/parley/transcripts"
)

// TestShowChoosesItsFormat: --format is checked before anything is read,
// and --json is the json format whatever --format says.
func TestShowChoosesItsFormat(t *testing.T) {
	for _, c := range []struct {
		json   bool
		args   []string
		code   int
		format string
	}{
		{args: []string{"20261203-ab"}, code: cmdutil.ExitOK, format: "text"},
		{args: []string{"20261203-ab", "--format", "md"}, code: cmdutil.ExitOK, format: "md"},
		{args: []string{"20261203-ab", "--format", "html"}, code: cmdutil.ExitOK, format: "html"},
		{json: true, args: []string{"20261203-ab", "--format", "md"}, code: cmdutil.ExitOK, format: "json"},
		{args: []string{"20261203-ab", "--format", "pdf"}, code: cmdutil.ExitUsage},
		{args: []string{"20261203-ab", "--format", "MD"}, code: cmdutil.ExitUsage},
		{args: []string{}, code: cmdutil.ExitUsage},
		{args: []string{"a", "b"}, code: cmdutil.ExitUsage},
	} {
		f := cmdtest.Factory()
		f.JSON = c.json
		var got *ShowOptions
		code := cmdtest.Exit(NewCmdShow(f, func(o *ShowOptions) error { got = o; return nil }), c.args...)
		if code != c.code {
			t.Errorf("json=%v %q: exit %d, want %d", c.json, c.args, code, c.code)
			continue
		}
		if c.code != cmdutil.ExitOK {
			if got != nil {
				t.Errorf("json=%v %q: a usage error reached the run function", c.json, c.args)
			}
			continue
		}
		if got == nil || got.ID != c.args[0] || got.Format != c.format {
			t.Errorf("json=%v %q: options %+v, want id %s format %s", c.json, c.args, got, c.args[0], c.format)
		}
	}
}

// TestListVerifyKeygenOptions: the filters of list are checked before the
// run function; verify and keygen take exactly one argument.
func TestListVerifyKeygenOptions(t *testing.T) {
	var list *ListOptions
	if code := cmdtest.Exit(NewCmdList(cmdtest.Factory(), func(o *ListOptions) error { list = o; return nil }), "--since", "7d", "--layer", "verify"); code != cmdutil.ExitOK || list == nil || list.Query.Since != "7d" || list.Query.Layer != "verify" {
		t.Errorf("list: exit %d, options %+v", code, list)
	}
	for _, args := range [][]string{{"--since", "last tuesday"}, {"--layer", "design"}, {"--verdict", "WON"}} {
		reached := false
		if code := cmdtest.Exit(NewCmdList(cmdtest.Factory(), func(*ListOptions) error { reached = true; return nil }), args...); code != cmdutil.ExitUsage || reached {
			t.Errorf("list %q: exit %d, reached %v; want a usage error before the run function", args, code, reached)
		}
	}
	var verify *VerifyOptions
	if code := cmdtest.Exit(NewCmdVerify(cmdtest.Factory(), func(o *VerifyOptions) error { verify = o; return nil }), "2026"); code != cmdutil.ExitOK || verify == nil || verify.ID != "2026" {
		t.Errorf("verify: exit %d, options %+v", code, verify)
	}
	var key *KeygenOptions
	if code := cmdtest.Exit(NewCmdKeygen(cmdtest.Factory(), func(o *KeygenOptions) error { key = o; return nil }), "seal.key"); code != cmdutil.ExitOK || key == nil || key.File != "seal.key" {
		t.Errorf("keygen: exit %d, options %+v", code, key)
	}
	if code := cmdtest.Exit(NewCmdKeygen(cmdtest.Factory(), func(*KeygenOptions) error { t.Error("keygen ran without a file"); return nil })); code != cmdutil.ExitUsage {
		t.Errorf("keygen without a file: exit %d", code)
	}
}

// TestKeygenOverAKeyIsAnError: a FILE that exists is refused and left as
// it is, with exit 1 (the command line was right; the file is in the way),
// not the usage error of a mistyped command.
func TestKeygenOverAKeyIsAnError(t *testing.T) {
	file := filepath.Join(t.TempDir(), "seal.key")
	if err := os.WriteFile(file, []byte("an old key\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, errs := cmdtest.Run(NewCmdKeygen(cmdtest.Factory(), nil), file)
	if code != cmdutil.ExitError || !strings.Contains(errs, file+" exists") || !strings.Contains(errs, "give another file") {
		t.Errorf("exit %d, want %d: %s", code, cmdutil.ExitError, errs)
	}
	if data, _ := os.ReadFile(file); string(data) != "an old key\n" {
		t.Errorf("the key was replaced: %q", data)
	}
}

// TestListHelpNamesTheColumnsInTheirOrder: the columns "transcripts list
// --help" names are the header row it prints, in the same order.
func TestListHelpNamesTheColumnsInTheirOrder(t *testing.T) {
	short := NewCmdList(cmdtest.Factory(), nil).Short
	i, j := strings.LastIndex(short, "("), strings.LastIndex(short, ")")
	if i < 0 || j < i {
		t.Fatalf("no columns in %q", short)
	}
	named := strings.Split(short[i+1:j], ", ")
	var b strings.Builder
	list := []transcripts.Summary{{Summary: debate.Summary{DebateID: "20261204-spec-rate-limits-abcdef", Topic: "Rate limits", Layer: debate.LayerSpec}}}
	if err := textview.Transcripts(&b, list, "/root", true); err != nil {
		t.Fatal(err)
	}
	header := strings.Fields(strings.ToLower(strings.SplitN(b.String(), "\n", 2)[0]))
	if strings.Join(named, " ") != strings.Join(header, " ") {
		t.Errorf("the help names the columns %v; the list prints %v", named, header)
	}
}
