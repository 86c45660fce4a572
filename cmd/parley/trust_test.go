package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

// applyFix runs the command a refusal says fixes it ("…: run: CMD").
func applyFix(t *testing.T, errs string) {
	t.Helper()
	m := regexp.MustCompile(`run: (.+)$`).FindStringSubmatch(strings.TrimSpace(errs))
	if m == nil {
		t.Fatalf("the refusal says no command to run: %q", errs)
	}
	if out, err := exec.Command("sh", "-c", m[1]).CombinedOutput(); err != nil {
		t.Fatalf("the printed fix %q: %v %s", m[1], err, out)
	}
}

// TestRootThatRefusesStrangers: a root, a config.json or an agent script
// that someone else could have written is refused before anything runs,
// with one line that says how to fix it; the fix it prints works.
func TestRootThatRefusesStrangers(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Log("not root: the foreign-owner cases chown to another uid and need root")
	}
	newRoot := func(t *testing.T) string {
		root := filepath.Join(t.TempDir(), "root")
		if _, errs, code := dcli(t, root, "init"); code != 0 {
			t.Fatalf("init: %s", errs)
		}
		fi, _ := os.Stat(root)
		if fi.Mode().Perm() != 0o700 {
			t.Fatalf("init made the root %v, want 0700", fi.Mode().Perm())
		}
		return root
	}
	refused := func(t *testing.T, root, want string, args ...string) string {
		t.Helper()
		out, errs, code := dcli(t, root, args...)
		if code == 0 || !strings.Contains(errs, want) || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Fatalf("%v: exit %d, stderr %q (want one line with %q)\n%s", args, code, errs, want, out)
		}
		return errs
	}
	works := func(t *testing.T, root string, args ...string) {
		t.Helper()
		if out, errs, code := dcli(t, root, args...); code != 0 {
			t.Fatalf("after the fix, %v: exit %d %s%s", args, code, out, errs)
		}
	}

	t.Run("a 0777 root", func(t *testing.T) {
		t.Parallel()
		root := newRoot(t)
		os.Chmod(root, 0o777)
		errs := refused(t, root, "is writable by group and others (mode 0777): run: chmod go-w "+root, "transcripts", "list")
		applyFix(t, errs)
		works(t, root, "transcripts", "list")
	})
	t.Run("a root owned by another user", func(t *testing.T) {
		t.Parallel()
		root := newRoot(t)
		if err := os.Chown(root, 4242, 4242); err != nil {
			t.Fatalf("chown (CI runs as root): %v", err)
		}
		errs := refused(t, root, "is owned by uid 4242, not by you", "consensus", "list")
		applyFix(t, errs)
		works(t, root, "consensus", "list")
	})
	t.Run("a world-writable config.json naming a command", func(t *testing.T) {
		t.Parallel()
		root := newRoot(t)
		marker := filepath.Join(t.TempDir(), "ran")
		cfg := filepath.Join(root, "config.json")
		os.WriteFile(cfg, []byte(`{"escalation":{"defender":"exec:touch `+marker+`","attacker":"exec:touch `+marker+`"}}`), 0o600)
		os.Chmod(cfg, 0o666)
		telemetry := filepath.Join(t.TempDir(), "telemetry.jsonl")
		os.WriteFile(telemetry, nil, 0o600)
		errs := refused(t, root, "config.json "+cfg+" is writable by group and others (mode 0666): run: chmod go-w "+cfg, "escalate", "--telemetry", telemetry)
		if _, err := os.Stat(marker); err == nil {
			t.Fatal("escalate ran the command of an untrusted config.json")
		}
		applyFix(t, errs)
		works(t, root, "config", "show")
	})
	t.Run("a config.json owned by another user", func(t *testing.T) {
		t.Parallel()
		root := newRoot(t)
		cfg := filepath.Join(root, "config.json")
		os.WriteFile(cfg, []byte(`{}`), 0o600)
		if err := os.Chown(cfg, 4242, 4242); err != nil {
			t.Fatal(err)
		}
		errs := refused(t, root, "is owned by uid 4242, not by you", "config", "show")
		applyFix(t, errs)
		works(t, root, "config", "show")
	})
	t.Run("a config.json that is a symbolic link out of the root", func(t *testing.T) {
		t.Parallel()
		root := newRoot(t)
		elsewhere := filepath.Join(t.TempDir(), "config.json")
		os.WriteFile(elsewhere, []byte(`{}`), 0o600)
		os.Symlink(elsewhere, filepath.Join(root, "config.json"))
		refused(t, root, "is a symbolic link to "+elsewhere+", out of the root", "config", "show")
	})
	t.Run("a vault that is a symbolic link out of the root", func(t *testing.T) {
		t.Parallel()
		root := newRoot(t)
		elsewhere := filepath.Join(t.TempDir(), "vault")
		os.Rename(filepath.Join(root, "vault"), elsewhere)
		os.Symlink(elsewhere, filepath.Join(root, "vault"))
		real, _ := filepath.EvalSymlinks(elsewhere)
		refused(t, root, "is a symbolic link to "+real+", out of the root; give --vault "+real, "consensus", "list")
		// Named on the command line, it is used.
		works(t, root, "--vault", real, "consensus", "list")
	})
	t.Run("an agent script others may write", func(t *testing.T) {
		t.Parallel()
		root := newRoot(t)
		dir := t.TempDir()
		s := writeScripts(t, dir, map[string]string{"critic": concedingCritic, "proposer": holdingDefender})
		os.Chmod(s["critic"], 0o666)
		errs := refused(t, root, "the agent script "+s["critic"]+" is writable by group and others (mode 0666): run: chmod go-w",
			"debate", "run", "--layer", "spec", "--topic", "Keys", "--position", "Use UUIDv7 keys",
			"--agent", "attacker=script:"+s["critic"], "--agent", "defender=script:"+s["proposer"])
		applyFix(t, errs)
		works(t, root, "debate", "run", "--layer", "spec", "--topic", "Keys", "--position", "Use UUIDv7 keys",
			"--agent", "attacker=script:"+s["critic"], "--agent", "defender=script:"+s["proposer"])
	})
	t.Run("an agent script that is a directory", func(t *testing.T) {
		t.Parallel()
		root := newRoot(t)
		dir := t.TempDir()
		s := writeScripts(t, dir, map[string]string{"proposer": holdingDefender})
		// A shared directory such as /tmp: its mode is no fix to print
		// ("run: chmod go-w /tmp" would break the system's /tmp).
		shared := filepath.Join(dir, "shared")
		if err := os.Mkdir(shared, 0o700); err != nil {
			t.Fatal(err)
		}
		os.Chmod(shared, 0o1777)
		for _, args := range [][]string{
			{"debate", "run", "--layer", "spec", "--topic", "Keys", "--agent", "attacker=script:" + shared, "--agent", "defender=script:" + s["proposer"]},
			{"agent", "run", "--name", "Critic", "--role", "attacker", "--script", shared},
		} {
			_, errs, code := dcli(t, root, args...)
			if code != 1 || !strings.Contains(errs, "the agent script "+shared+" is a directory: name a file") || strings.Contains(errs, "chmod") {
				t.Errorf("%v: exit %d, stderr %q", args[:2], code, errs)
			}
		}
	})
	t.Run("an agent script that is a named pipe", func(t *testing.T) {
		t.Parallel()
		root := newRoot(t)
		// Every agent reads its script again: a pipe, read once, cannot
		// be one. It is refused at once; nobody writing to it used to
		// hold the command in open(2), deaf to Ctrl-C and SIGTERM.
		fifo := filepath.Join(t.TempDir(), "script.json")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
		for _, args := range [][]string{
			{"debate", "run", "--layer", "spec", "--topic", "x", "--agent", "attacker=script:" + fifo, "--agent", "defender=script:" + fifo},
			{"agent", "run", "--name", "Critic", "--role", "attacker", "--script", fifo},
		} {
			_, errs, code := dcli(t, root, args...)
			if want := "the agent script " + fifo + " is a named pipe, which can be read only once: name a regular file"; code != 1 || !strings.Contains(errs, want) {
				t.Errorf("%v: exit %d, stderr %q; want exit 1 and %q", args[:2], code, errs, want)
			}
		}
	})
}

// The help and the completion scripts read no root: a root parley would
// refuse to use (PARLEY_ROOT set to a shared directory, say) does not
// stop "parley help" or "parley completion bash"; the refusal comes when
// a command uses it.
func TestHelpAndCompletionReadNoRoot(t *testing.T) {
	t.Parallel()
	bad := t.TempDir()
	if err := os.Chmod(bad, 0o777); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"help"}, {"help", "debate", "run"}, {"completion", "bash"}, {"completion", "zsh"}, {"debate", "run", "--help"}} {
		out, errs, code := runT(t, "", append([]string{"--root", bad}, args...)...)
		if code != 0 || errs != "" || out == "" {
			t.Errorf("%v with a root writable by others: exit %d, stderr %q", args, code, errs)
		}
	}
	if _, errs, code := runT(t, "", "--root", bad, "debate", "list"); code != 1 || !strings.Contains(errs, "is writable by group and others") {
		t.Errorf("debate list with a root writable by others: exit %d, stderr %q", code, errs)
	}
}
