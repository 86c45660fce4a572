package main

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
)

// firstScreen returns the shell blocks of the README's "Start here"
// section: the commands a newcomer runs first, as printed.
func firstScreen(t *testing.T, readme string) [][]string {
	t.Helper()
	_, sec, ok := strings.Cut(readme, "\n## Start here\n")
	if !ok {
		t.Fatal(`README.md has no "## Start here" section`)
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	var blocks [][]string
	for {
		_, rest, ok := strings.Cut(sec, "```sh\n")
		if !ok {
			break
		}
		body, after, _ := strings.Cut(rest, "```")
		var cmds []string
		for _, l := range strings.Split(body, "\n") {
			if strings.TrimSpace(l) != "" {
				cmds = append(cmds, l)
			}
		}
		blocks = append(blocks, cmds)
		sec = after
	}
	return blocks
}

// copyRepo copies the module at src into dst, as a fresh clone has it:
// without .git, node_modules or a .parley root.
func copyRepo(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		switch d.Name() {
		case ".git", "node_modules", ".parley":
			if d.IsDir() {
				return filepath.SkipDir
			}
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case !d.Type().IsRegular():
			return nil
		}
		in, err := os.Open(p)
		if err != nil {
			return err
		}
		defer in.Close()
		info, err := in.Stat()
		if err != nil {
			return err
		}
		out, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, info.Mode().Perm())
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The README's first screen works as printed on a fresh machine: in a
// fresh copy of the repository, with a GOPATH whose bin is not on PATH and
// no parley installed, every command of its first block runs, in order, in
// one shell, and succeeds — go install, the PATH line, parley demo (which
// must reach a verdict), parley --help. Then the commands the demo asks
// the user to try, pasted as it printed them (with its --root), succeed
// too. The second block, the test command, is the one CI runs: .ci/run
// must run it exactly as printed.
func TestReadmeFirstScreenRunsAsPrinted(t *testing.T) {
	t.Parallel()
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(repo, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := firstScreen(t, string(readme))
	if len(blocks) < 2 {
		t.Fatalf("the first screen has %d shell blocks, want the commands and the tests", len(blocks))
	}
	try, tests := blocks[0], blocks[1]
	if !strings.HasPrefix(try[0], "go install ./cmd/parley") {
		t.Errorf("the first command is %q, not go install ./cmd/parley", try[0])
	}
	joined := strings.Join(try, "\n")
	if !strings.Contains(joined, "parley demo") {
		t.Errorf("the first screen does not run parley demo:\n%s", joined)
	}
	ci, err := os.ReadFile(filepath.Join(repo, ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range tests {
		cmd, _, _ := strings.Cut(l, "#")
		if cmd = strings.TrimSpace(cmd); !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(cmd) + `$`).Match(ci) {
			t.Errorf("the README's test command %q is not what .ci/run runs", cmd)
		}
	}

	dir := t.TempDir()
	clone := filepath.Join(dir, "parley")
	copyRepo(t, repo, clone)
	gopath := filepath.Join(dir, "gopath")
	tmp := filepath.Join(dir, "tmp")
	home := filepath.Join(dir, "home")
	for _, d := range []string{gopath, tmp, home} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	env := func(name string) string {
		out, err := exec.Command(goBin, "env", name).Output()
		if err != nil {
			t.Fatalf("go env %s: %v", name, err)
		}
		return strings.TrimSpace(string(out))
	}
	// PATH: the system's and Go's, but no parley: the README must install
	// it and put it on PATH itself.
	var path []string
	for _, p := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(p, "parley")); err == nil {
			continue
		}
		path = append(path, p)
	}
	path = append(path, filepath.Dir(goBin))
	shellEnv := []string{
		"PATH=" + strings.Join(path, string(os.PathListSeparator)),
		"HOME=" + home, "TMPDIR=" + tmp, "GOPATH=" + gopath,
		// The module and build caches are shared, so the build is the
		// same one, only faster, and no network is needed.
		"GOMODCACHE=" + env("GOMODCACHE"), "GOCACHE=" + env("GOCACHE"),
		"GOPROXY=off", "GOFLAGS=-buildvcs=false", "GOTOOLCHAIN=local",
	}
	script := "set -e\n"
	for i, l := range try {
		script += l + "\n" + "echo '<<ok " + string(rune('0'+i)) + ">>'\n"
	}
	sh := exec.Command("bash", "--norc", "--noprofile", "-c", script)
	sh.Dir, sh.Env = clone, shellEnv
	var out, errb bytes.Buffer
	sh.Stdout, sh.Stderr = &out, &errb
	if err := sh.Run(); err != nil {
		done := strings.Count(out.String(), "<<ok ")
		t.Fatalf("command %d of the first screen, %q, failed: %v\nstdout:\n%s\nstderr:\n%s", done+1, try[min(done, len(try)-1)], err, out.String(), errb.String())
	}
	if _, err := os.Stat(filepath.Join(gopath, "bin", "parley")); err != nil {
		t.Errorf("go install did not put parley in GOPATH/bin: %v", err)
	}
	if !strings.Contains(out.String(), "CONSENSUS_REACHED") {
		t.Errorf("parley demo reached no verdict:\n%s", out.String())
	}

	// The demo's suggestions, pasted as printed: each names its root.
	var pasted []string
	for _, l := range strings.Split(out.String(), "\n") {
		f := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "try"))
		if strings.HasPrefix(f, "parley --root ") {
			pasted = append(pasted, f)
		}
	}
	if len(pasted) == 0 {
		t.Fatalf("the demo suggests no command to try:\n%s", out.String())
	}
	for _, l := range pasted {
		c := exec.Command("bash", "--norc", "--noprofile", "-c", `export PATH="$(go env GOPATH)/bin:$PATH"; `+l)
		c.Dir, c.Env = dir, shellEnv
		b, err := c.CombinedOutput()
		// consensus check of a different position is a conflict: exit 3,
		// which is its answer, not a failure.
		var ee *exec.ExitError
		if err != nil && !(strings.Contains(l, "consensus check") && errors.As(err, &ee) && ee.ExitCode() == cmdutil.ExitBlocked) {
			t.Errorf("the demo's suggestion %q fails when pasted: %v\n%s", l, err, b)
		}
	}
}
