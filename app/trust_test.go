package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A root others may write is refused; a default vault that leads out of
// the root is refused unless the vault is named (by the front end or by
// $PARLEY_VAULT); a vault inside the root is used.
func TestTrustRoot(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	if err := os.MkdirAll(filepath.Join(root, "vault"), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PARLEY_VAULT", "")
	a := New(Options{Root: root})
	if err := a.TrustRoot(false); err != nil {
		t.Fatalf("a private root with its vault inside: %v", err)
	}
	if err := os.Chmod(root, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := a.TrustRoot(true); err == nil || !strings.Contains(err.Error(), "chmod go-w") {
		t.Errorf("a 0777 root: %v", err)
	}
	if err := os.Chmod(root, 0o700); err != nil {
		t.Fatal(err)
	}

	elsewhere := filepath.Join(dir, "elsewhere")
	if err := os.Rename(filepath.Join(root, "vault"), elsewhere); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, filepath.Join(root, "vault")); err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(elsewhere)
	err := a.TrustRoot(false)
	if err == nil || !strings.Contains(err.Error(), "is a symbolic link to "+real+", out of the root; give --vault "+real) {
		t.Errorf("a vault that leads out of the root: %v", err)
	}
	if err := a.TrustRoot(true); err != nil {
		t.Errorf("the same vault named by the front end: %v", err)
	}
	t.Setenv("PARLEY_VAULT", real)
	if err := a.TrustRoot(false); err != nil {
		t.Errorf("the same vault named by PARLEY_VAULT: %v", err)
	}
}

// The default vault is judged by what <root>/vault is: a directory, a
// link to a directory in the root, nothing yet, or a link that leads
// nowhere are all in the root; a link out of it (through a root reached
// by a relative path, with a trailing slash) is not.
func TestTrustRootDefaultVault(t *testing.T) {
	t.Setenv("PARLEY_VAULT", "")
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	if err := os.MkdirAll(filepath.Join(root, "pages"), 0o700); err != nil {
		t.Fatal(err)
	}
	vault := filepath.Join(root, "vault")
	for _, tc := range []struct {
		name   string
		make   func() error
		inside bool
	}{
		{"none yet", func() error { return nil }, true},
		{"a directory", func() error { return os.Mkdir(vault, 0o700) }, true},
		{"a link into the root", func() error { return os.Symlink("pages", vault) }, true},
		{"a link to nothing", func() error { return os.Symlink("gone", vault) }, true},
		{"a link out of the root", func() error { return os.Symlink(dir, vault) }, false},
	} {
		os.RemoveAll(vault)
		if err := tc.make(); err != nil {
			t.Fatal(err)
		}
		for _, r := range []string{root, root + "/", "./" + filepath.Base(root)} {
			if strings.HasPrefix(r, "./") {
				t.Chdir(dir)
			}
			err := New(Options{Root: r}).TrustRoot(false)
			if (err == nil) != tc.inside {
				t.Errorf("%s, root %q: %v", tc.name, r, err)
			}
		}
	}
}

// A root or a vault named with a leading "~/" (an MCP client's arguments,
// PARLEY_ROOT set by a service manager: no shell expands it) is under the
// user's home, not a directory called "~" under the working directory.
func TestRootAndVaultUnderHome(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("PARLEY_ROOT", "~/env-root")
	t.Setenv("PARLEY_VAULT", "~/notes/vault")
	a := New(Options{})
	if a.Root() != filepath.Join(home, "env-root") || a.Vault() != filepath.Join(home, "notes", "vault") {
		t.Errorf("from the environment: root %q, vault %q", a.Root(), a.Vault())
	}
	a = New(Options{Root: "~/flag-root", Vault: "~"})
	if a.Root() != filepath.Join(home, "flag-root") || a.Vault() != home {
		t.Errorf("from the options: root %q, vault %q", a.Root(), a.Vault())
	}
	t.Setenv("PARLEY_VAULT", "")
	if a = New(Options{Root: "~/r"}); a.Vault() != filepath.Join(home, "r", "vault") {
		t.Errorf("the default vault of ~/r: %q", a.Vault())
	}
	// Only a leading "~" alone or before "/" is the home.
	for _, p := range []string{"~other/r", "./~/r", "r~"} {
		if a := New(Options{Root: p}); a.Root() != p {
			t.Errorf("%q became %q", p, a.Root())
		}
	}
}

// CommandLine names the root and vault the options named, for the shell
// that ran this process (it has the same environment); CommandLineElsewhere,
// for a shell without this process's environment (an MCP client's agent),
// also names those $PARLEY_ROOT and $PARLEY_VAULT chose, as they gave them.
func TestCommandLineElsewhereNamesTheEnvironment(t *testing.T) {
	t.Setenv("PARLEY_ROOT", "/srv/parley root")
	t.Setenv("PARLEY_VAULT", "~/notes")
	a := New(Options{})
	if got, want := a.CommandLine("agents", "list"), "parley agents list"; got != want {
		t.Errorf("CommandLine: %q, want %q", got, want)
	}
	if got, want := a.CommandLineElsewhere("agents", "list"), `parley --root '/srv/parley root' --vault '~/notes' agents list`; got != want {
		t.Errorf("CommandLineElsewhere: %q, want %q", got, want)
	}
	a = New(Options{Root: "flag-root"})
	if got, want := a.CommandLineElsewhere("gc"), `parley --root flag-root --vault '~/notes' gc`; got != want {
		t.Errorf("CommandLineElsewhere with --root: %q, want %q", got, want)
	}
	t.Setenv("PARLEY_ROOT", "")
	t.Setenv("PARLEY_VAULT", "")
	if got, want := New(Options{}).CommandLineElsewhere("gc"), "parley gc"; got != want {
		t.Errorf("CommandLineElsewhere on the defaults: %q, want %q", got, want)
	}
}

func TestInside(t *testing.T) {
	t.Parallel()
	root, out := t.TempDir(), t.TempDir()
	os.Mkdir(filepath.Join(root, "vault"), 0o700)
	os.Symlink(out, filepath.Join(root, "elsewhere"))
	os.Symlink(filepath.Join(root, "vault"), filepath.Join(root, "alias"))
	for name, want := range map[string]bool{"vault": true, "alias": true, "elsewhere": false, "missing": true} {
		if in, _, err := inside(root, filepath.Join(root, name)); err != nil || in != want {
			t.Errorf("%s: inside %v %v, want %v", name, in, err, want)
		}
	}
}
