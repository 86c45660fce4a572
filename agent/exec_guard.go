package agent

import (
	"os"
	"os/exec"
	"syscall"
)

// A turn's command must not outlive the process that runs it: an agent
// killed outright (kill -9, the OOM killer) runs no cleanup, and its
// command, with whatever that started, would go on calling a paid API or
// holding files. So each command runs in a process group led by a guard,
// a shell reading a pipe whose only writer is this process: the kernel
// closes that writer when this process ends, however it ends, and the
// guard, reading end of file, kills its whole group.
//
// Linux's parent-death signal (SysProcAttr.Pdeathsig) would not do: it is
// sent when the OS thread that started the child ends, not the process
// (golang/go#27505), and only to that child, never to what the command
// started (a pipeline's programs, a sleep in a script).

// guardScript reads its stdin to the end, then kills its process group.
const guardScript = "while read -r line; do :; done; kill -s KILL 0"

// groupGuard leads a command's process group and kills the group when
// this process ends before release. Not safe for concurrent use.
type groupGuard struct {
	cmd *exec.Cmd
	w   *os.File // the pipe's only writer
}

// startGuard starts the guard of a new process group, whose id is
// g.pgid(). The caller must call release, after the group's command has
// been waited for.
func startGuard() (*groupGuard, error) {
	r, w, err := os.Pipe() // close-on-exec: no other child holds w
	if err != nil {
		return nil, err
	}
	defer r.Close()
	cmd := exec.Command("sh", "-c", guardScript)
	cmd.Dir = "/"
	cmd.Stdin = r
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		w.Close()
		return nil, err
	}
	return &groupGuard{cmd: cmd, w: w}, nil
}

// pgid is the id of the group the guard leads; it stays this group's until
// release (the guard, dead or alive, is not reaped before).
func (g *groupGuard) pgid() int { return g.cmd.Process.Pid }

// release ends the guard alone, leaving its group be: the turn is over,
// and a child the command left that holds none of its output may go on, as
// it may after any command. Killed first, the guard cannot read the end
// of file that closing the pipe then makes.
func (g *groupGuard) release() {
	_ = g.cmd.Process.Kill()
	_ = g.cmd.Wait()
	g.w.Close()
}
