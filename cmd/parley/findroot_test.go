package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A newcomer who runs parley from a subdirectory of the directory where
// they ran "parley init" works on that root, as git does with .git: the
// agent's inbox, the message and its receipt are all in the one root, and
// no second .parley appears in the subdirectory. "parley init" itself
// makes a root where it is run.
func TestSubdirectoryUsesTheRootAbove(t *testing.T) {
	t.Parallel()
	top := t.TempDir()
	deep := filepath.Join(top, "src", "deep")
	if err := os.MkdirAll(deep, 0o700); err != nil {
		t.Fatal(err)
	}
	parley := func(dir string, args ...string) string {
		t.Helper()
		cmd := testBinary(t, args...)
		cmd.Dir = dir
		env := cmd.Env[:0:0]
		for _, kv := range cmd.Env {
			if !strings.HasPrefix(kv, "PARLEY_ROOT=") && !strings.HasPrefix(kv, "PARLEY_VAULT=") {
				env = append(env, kv)
			}
		}
		cmd.Env = env
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("parley %s in %s: %v: %s", strings.Join(args, " "), dir, err, stderr.String())
		}
		return stdout.String()
	}
	parley(top, "init")
	root := filepath.Join(top, ".parley")

	if out := parley(deep, "agents", "add", "Bob"); !strings.Contains(out, filepath.Join(root, "inbox", "Bob")) {
		t.Errorf("agents add from a subdirectory: %q, want Bob's inbox under %s", out, root)
	}
	parley(deep, "send", "--from", "Alice", "--to", "Bob", "hello from below")
	if out := parley(top, "recv", "--as", "Bob"); !strings.Contains(out, "hello from below") {
		t.Errorf("recv at the root's directory: %q, want the message sent from the subdirectory", out)
	}
	for _, d := range []string{deep, filepath.Dir(deep)} {
		if _, err := os.Lstat(filepath.Join(d, ".parley")); !os.IsNotExist(err) {
			t.Errorf("%s/.parley: %v, want none: a second root was made", d, err)
		}
	}

	out := parley(deep, "init")
	if !strings.Contains(out, "parley root:  .parley") {
		t.Errorf("init in a subdirectory: %q, want a root made there", out)
	}
	if fi, err := os.Stat(filepath.Join(deep, ".parley", "inbox")); err != nil || !fi.IsDir() {
		t.Errorf("init in a subdirectory made no root there: %v", err)
	}
}
