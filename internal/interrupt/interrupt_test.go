package interrupt

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"testing/iotest"
	"time"
)

// The context a command runs under answers like a background context
// until something could wait on it; from then on SIGTERM (or Ctrl-C) ends
// it, and every context derived from it, as signal.NotifyContext does.
func TestContextListensOnceAWaitCouldBegin(t *testing.T) {
	c := &Context{}
	defer c.Release()
	type key struct{}
	if c.Err() != nil || c.Value(key{}) != nil || c.Listening() {
		t.Fatalf("listening before anything asked: err %v, listening %v", c.Err(), c.Listening())
	}
	if _, ok := c.Deadline(); ok {
		t.Fatal("a deadline nobody set")
	}
	child, cancel := context.WithTimeout(c, time.Minute) // asks for Done
	defer cancel()
	if !c.Listening() {
		t.Fatal("a derived context did not start the listening")
	}
	sigterm(t, child, "the derived context")
	if !errors.Is(child.Err(), context.Canceled) || !errors.Is(c.Err(), context.Canceled) {
		t.Fatalf("after SIGTERM: child %v, parent %v", child.Err(), c.Err())
	}
}

// Arm starts the listening of a Context at once, and leaves any other
// context alone; Release before any listening is harmless.
func TestArm(t *testing.T) {
	(&Context{}).Release()
	c := &Context{}
	defer c.Release()
	Arm(c)
	if !c.Listening() || c.Err() != nil {
		t.Fatalf("armed: listening %v, err %v", c.Listening(), c.Err())
	}
	Arm(context.Background()) // not a Context: nothing to do, no panic
}

// On ends its context on SIGTERM, and its stop ends it without one.
func TestOn(t *testing.T) {
	ctx, stop := On(context.Background())
	sigterm(t, ctx, "On's context")
	stop()
	ctx, stop = On(context.Background())
	stop()
	if ctx.Err() == nil {
		t.Fatal("stop did not end the context")
	}
}

// ReadAll reads everything up to the limit and one byte more (so that the
// caller can tell the input was over it), and passes the reader's error on.
func TestReadAll(t *testing.T) {
	b, err := ReadAll(context.Background(), strings.NewReader("hello"), 10)
	if err != nil || string(b) != "hello" {
		t.Fatalf("%q, %v", b, err)
	}
	b, err = ReadAll(context.Background(), strings.NewReader("0123456789abc"), 10)
	if err != nil || string(b) != "0123456789a" {
		t.Fatalf("over the limit: %q, %v, want the limit and one byte more", b, err)
	}
	boom := errors.New("boom")
	if _, err := ReadAll(context.Background(), io.MultiReader(bytes.NewReader([]byte("x")), errReader{boom}), 10); !errors.Is(err, boom) {
		t.Fatalf("the reader's error: %v", err)
	}
}

// A read that never ends (a terminal nobody types into) is ended by the
// context: ErrInterrupted, at once.
func TestReadAllInterrupted(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := ReadAll(ctx, pr, 10)
		done <- err
	}()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, ErrInterrupted) {
			t.Fatalf("interrupted read: %v, want ErrInterrupted", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the end of the context did not end the read")
	}
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

// TestReaderReadsAsItArrives: what Reader reads is r's, whole, whatever
// the sizes of the reads.
func TestReaderReadsAsItArrives(t *testing.T) {
	t.Parallel()
	want := strings.Repeat("a record\n", 1000)
	r := Reader(context.Background(), iotest.OneByteReader(strings.NewReader(want)))
	b, err := io.ReadAll(iotest.HalfReader(r))
	if err != nil || string(b) != want {
		t.Fatalf("read %d bytes, %v; want %d", len(b), err, len(want))
	}
}

// TestReaderEndsWithTheContext: a read waiting on input that never comes
// ends with ErrInterrupted when the context does, before or while waiting.
func TestReaderEndsWithTheContext(t *testing.T) {
	t.Parallel()
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	r := Reader(ctx, pr)
	done := make(chan error, 1)
	go func() { _, err := r.Read(make([]byte, 10)); done <- err }()
	cancel()
	if err := <-done; !errors.Is(err, ErrInterrupted) {
		t.Fatalf("err = %v, want ErrInterrupted", err)
	}
	if _, err := r.Read(make([]byte, 10)); !errors.Is(err, ErrInterrupted) {
		t.Fatalf("after the end: %v", err)
	}
}

// Work under AfterStop is not cut short by the stop itself: it ends
// interrupt.Grace later, with ErrGraceOver as the cause; released before
// that, it ends as released, not as timed out.
func TestAfterStop(t *testing.T) {
	t.Parallel()
	parent, stop := context.WithCancel(context.Background())
	c, release := AfterStop(parent)
	defer release()
	stop()
	select {
	case <-c.Done():
	case <-time.After(time.Minute): // a hang guard: the grace is seconds
		t.Fatal("the grace never ended")
	}
	if !errors.Is(c.Err(), context.Canceled) || !errors.Is(context.Cause(c), ErrGraceOver) {
		t.Fatalf("after the grace: err %v, cause %v", c.Err(), context.Cause(c))
	}

	c, release = AfterStop(context.Background())
	release()
	<-c.Done()
	if errors.Is(context.Cause(c), ErrGraceOver) {
		t.Fatalf("released: cause %v, want not the grace", context.Cause(c))
	}
}

// After the first Ctrl-C ended the context, the work on the way out may
// take longer than the user will wait: a second Ctrl-C ends the process
// at once, killed by the signal (the shell says 130), as it would any
// program. It used to be swallowed, as every later SIGTERM was.
func TestASecondSignalEndsTheProcess(t *testing.T) {
	if os.Getenv("PARLEY_SECOND_SIGNAL_CHILD") == "1" {
		ctx, stop := On(context.Background())
		defer stop()
		fmt.Println("listening")
		<-ctx.Done()
		fmt.Println("stopping")
		time.Sleep(time.Hour) // work on the way out that does not end
		return
	}
	t.Parallel()
	cmd := exec.Command(os.Args[0], "-test.run=^TestASecondSignalEndsTheProcess$")
	cmd.Env = append(os.Environ(), "PARLEY_SECOND_SIGNAL_CHILD=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(out)
	expect := func(want string) {
		t.Helper()
		for lines.Scan() {
			if lines.Text() == want {
				return
			}
		}
		_ = cmd.Process.Kill()
		t.Fatalf("the child never said %q", want)
	}
	expect("listening")
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	expect("stopping")
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, _ = io.Copy(io.Discard, out)
		done <- cmd.Wait()
	}()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("the child ended with %v; want it killed by SIGINT", err)
		}
		if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGINT {
			t.Fatalf("the child ended with %v; want it killed by SIGINT", err)
		}
	case <-time.After(time.Minute): // a hang guard: the second signal ends it at once
		_ = cmd.Process.Kill()
		<-done
		t.Fatal("a second Ctrl-C did not end the process: the signal was swallowed")
	}
}

// The signal that ended On's context is its cause, and says the exit
// status of a process it stopped before it finished, as a shell reports
// a process the signal killed; Stopped marks an error with it.
func TestOnNamesTheSignal(t *testing.T) {
	ctx, stop := On(context.Background())
	defer stop()
	sigterm(t, ctx, "On's context")
	var se *SignalError
	if !errors.As(context.Cause(ctx), &se) || se.Signal != syscall.SIGTERM || se.ExitCode() != 143 {
		t.Fatalf("cause %v, want SIGTERM (exit 143)", context.Cause(ctx))
	}
	err := Stopped(ctx, fmt.Errorf("waiting: %w", ErrInterrupted))
	if !errors.Is(err, ErrInterrupted) || !errors.As(err, &se) || err.Error() != "waiting: interrupted" {
		t.Fatalf("Stopped: %v", err)
	}
	for sig, want := range map[syscall.Signal]int{syscall.SIGINT: 130, syscall.SIGHUP: 129} {
		if got := (&SignalError{Signal: sig}).ExitCode(); got != want {
			t.Errorf("%v: exit %d, want %d", sig, got, want)
		}
	}
	plain, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Stopped(plain, ErrInterrupted); err != ErrInterrupted {
		t.Fatalf("no signal ended the context, yet Stopped says %v", err)
	}
}

// A process started to ignore SIGINT (a job that a non-interactive shell
// ran in the background, "cmd &") keeps ignoring it, as it keeps ignoring
// a hang-up under nohup: the first signal that stops it is SIGTERM.
func TestAnIgnoredCtrlCStaysIgnored(t *testing.T) {
	if os.Getenv("PARLEY_IGNORED_SIGINT_CHILD") == "1" {
		ctx, stop := On(context.Background())
		defer stop()
		fmt.Println(HowToStop())
		fmt.Println("listening")
		<-ctx.Done()
		fmt.Println(context.Cause(ctx))
		return
	}
	t.Parallel()
	// The shell ignores SIGINT, and the test binary inherits that.
	cmd := exec.Command("sh", "-c", `trap "" INT; exec "$0" "$@"`, os.Args[0], "-test.run=^TestAnIgnoredCtrlCStaysIgnored$")
	cmd.Env = append(os.Environ(), "PARLEY_IGNORED_SIGINT_CHILD=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	lines := bufio.NewScanner(out)
	next := func() string {
		t.Helper()
		if !lines.Scan() {
			t.Fatalf("the child said nothing more: %v", lines.Err())
		}
		return lines.Text()
	}
	// What it tells a person to do is what stops it: not Ctrl-C.
	if got, want := next(), fmt.Sprintf("kill %d", cmd.Process.Pid); got != want {
		t.Errorf("the child says to stop it with %q; want %q", got, want)
	}
	for next() != "listening" {
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := next(), (&SignalError{Signal: syscall.SIGTERM}).Error(); got != want {
		t.Fatalf("the child stopped: %q; want %q (SIGINT ignored)", got, want)
	}
}

// A process that hears Ctrl-C says to stop it with Ctrl-C.
func TestHowToStop(t *testing.T) {
	t.Parallel()
	if got := HowToStop(); got != "Ctrl-C" {
		t.Errorf("HowToStop() = %q; want Ctrl-C (the test binary hears SIGINT: its TestMain)", got)
	}
}

// sigterm sends this process SIGTERM and waits for ctx (what) to end.
func sigterm(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("SIGTERM did not end " + what)
	}
}

// While OutliveReader holds, a write to standard output whose reader went
// away fails with EPIPE and the process goes on (to clean up); once it is
// released, such a write ends the process by SIGPIPE, as Go's runtime does
// for standard output by default.
func TestOutliveReader(t *testing.T) {
	if mode := os.Getenv("PARLEY_OUTLIVE_READER_CHILD"); mode != "" {
		release := OutliveReader()
		if mode == "released" {
			release()
		}
		_, err := os.Stdout.Write([]byte("to nobody\n"))
		fmt.Fprintf(os.Stderr, "write: %v\n", err)
		os.Exit(0) // before the test framework writes PASS to the closed pipe
	}
	t.Parallel()
	for _, mode := range []string{"held", "released"} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		_ = r.Close() // the reader is gone before the first write
		var stderr bytes.Buffer
		cmd := exec.Command(os.Args[0], "-test.run=^TestOutliveReader$")
		cmd.Env = append(os.Environ(), "PARLEY_OUTLIVE_READER_CHILD="+mode)
		cmd.Stdout, cmd.Stderr = w, &stderr
		err = cmd.Run()
		_ = w.Close()
		switch mode {
		case "held":
			if err != nil || !strings.Contains(stderr.String(), "broken pipe") {
				t.Errorf("held: the child ended with %v, said %q; want it to see EPIPE and go on", err, stderr.String())
			}
		case "released":
			var ee *exec.ExitError
			ws, ok := syscall.WaitStatus(0), false
			if errors.As(err, &ee) {
				ws, ok = ee.Sys().(syscall.WaitStatus)
			}
			if !ok || !ws.Signaled() || ws.Signal() != syscall.SIGPIPE {
				t.Errorf("released: the child ended with %v, said %q; want it killed by SIGPIPE", err, stderr.String())
			}
		}
	}
}
