package inbox_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/parleyhq/parley/inbox"
)

// The test binary doubles as the sender and receiver processes of the
// multi-process tests: TestMain runs the helper named by $INBOX_HELPER
// instead of the tests.
func TestMain(m *testing.M) {
	switch os.Getenv("INBOX_HELPER") {
	case "":
		os.Exit(m.Run())
	case "send":
		os.Exit(helperSend())
	case "recv-crash":
		os.Exit(helperRecvCrash())
	case "recv-emfile":
		os.Exit(helperRecvEMFILE())
	default:
		fmt.Fprintln(os.Stderr, "unknown INBOX_HELPER")
		os.Exit(2)
	}
}

// helperSend sends $COUNT messages (text "$FIRST", "$FIRST+1", …; 0 = until killed)
// from $FROM to $TO under $ROOT, printing each id once Send has returned.
func helperSend() int {
	// $CLOCK_OFFSET (a duration) sets this process's wall clock off.
	offset, _ := time.ParseDuration(os.Getenv("CLOCK_OFFSET"))
	tr, err := inbox.NewFileTransport(os.Getenv("ROOT"), inbox.WithClock(func() time.Time { return time.Now().Add(offset) }))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	count, _ := strconv.Atoi(os.Getenv("COUNT"))
	out := bufio.NewWriterSize(os.Stdout, 64)
	first, _ := strconv.Atoi(os.Getenv("FIRST"))
	for i := 0; count == 0 || i < count; i++ {
		m := &inbox.Message{From: os.Getenv("FROM"), To: os.Getenv("TO"), Text: strconv.Itoa(first + i)}
		if err := tr.Send(context.Background(), m); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Fprintln(out, m.ID)
		out.Flush()
	}
	return 0
}

// helperRecvCrash receives one message of $TO, records it as handled in
// $HANDLED (fsynced), prints its id and then hangs before acknowledging,
// waiting to be killed.
func helperRecvCrash() int {
	tr, err := inbox.NewFileTransport(os.Getenv("ROOT"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	r, err := tr.Listen(context.Background(), os.Getenv("TO"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	d, err := r.Receive(ctx)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := handle(os.Getenv("HANDLED"), d.Message.ID); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println(d.Message.ID)
	time.Sleep(time.Minute)
	return 3
}

// handle is the consumer's side effect: it appends id to a log, durably.
func handle(path, id string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := fmt.Fprintln(f, id); err != nil {
		return err
	}
	return f.Sync()
}

// helper starts the test binary as a helper process.
func helper(t testing.TB, mode string, env ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), append([]string{"INBOX_HELPER=" + mode}, env...)...)
	cmd.Stderr = os.Stderr
	return cmd
}

func long() bool { return os.Getenv("PARLEY_LONG") == "1" }

// helperRecvEMFILE receives $TO's messages, one Receive with the process
// out of file descriptors (EMFILE, not the file's fault) and the rest after
// the limit is restored, printing "error" or each message's text.
func helperRecvEMFILE() int {
	tr, err := inbox.NewFileTransport(os.Getenv("ROOT"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	r, err := tr.Listen(context.Background(), os.Getenv("TO"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	// The lowest free descriptor: with the limit there, the next open fails.
	f, err := os.Open(os.DevNull)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	low := uint64(f.Fd())
	f.Close()
	short := lim
	short.Cur = low
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &short); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err = r.Receive(ctx)
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err == nil || !errors.Is(err, syscall.EMFILE) {
		fmt.Fprintln(os.Stderr, "Receive out of descriptors:", err)
		return 1
	}
	fmt.Println("error")
	for i := 0; i < 2; i++ {
		d, err := r.Receive(ctx)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Println(d.Message.Text)
		if err := r.Ack(ctx, d); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}
