package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/parleyhq/parley/config"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/durable"
	"github.com/parleyhq/parley/registry"
)

// The causes a user fixes outside parley: a directory they cannot write,
// a full disk.
var resourceFaults = []syscall.Errno{syscall.EACCES, syscall.ENOSPC}

// refusedAck is a receiver whose acknowledgements fail as they do when
// the inbox directory is not writable (or the disk is full): the message
// was handed over, but cannot be moved to cur/.
type refusedAck struct {
	inbox.Receiver
	cause syscall.Errno
}

func (r refusedAck) Ack(_ context.Context, d *inbox.Delivery) error {
	return &inbox.DeliveryError{Op: "move", Agent: d.Message.To, Path: "inbox/" + d.Message.To + "/" + d.Handle,
		Err: &os.LinkError{Op: "rename", Old: d.Handle, New: "cur/" + d.Handle, Err: r.cause}}
}

// A receive whose acknowledgement fails says that the message was
// received and will come again, never that nothing was delivered; and it
// does come again.
func TestAFailedAckSaysTheMessageComesAgain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, cause := range resourceFaults {
		tr := inbox.NewMemTransport()
		if err := tr.Create(ctx, "Bob"); err != nil {
			t.Fatal(err)
		}
		m := &inbox.Message{ID: inbox.NewID(), From: "Ana", To: "Bob", Text: "deploy window moved to 14:00", Timestamp: inbox.Now(), Type: inbox.TypeText}
		if err := tr.Send(ctx, m); err != nil {
			t.Fatal(err)
		}
		r, err := tr.Listen(ctx, "Bob")
		if err != nil {
			t.Fatal(err)
		}
		handled := 0
		n, err := Receive(ctx, refusedAck{r, cause}, ReceiveOptions{Max: 1}, func(*inbox.Message) error { handled++; return nil })
		r.Close()
		msg := err.Error()
		if n != 0 || handled != 1 || !errors.Is(err, cause) || !IsProblem(err, ProblemMessenger) ||
			strings.Contains(msg, "nothing was delivered") || !strings.Contains(msg, m.ID) ||
			!strings.Contains(msg, "not acknowledged") || !strings.Contains(msg, "delivered again") {
			t.Errorf("%v: %d acknowledged, %d handled, %q; want the message named as received, not acknowledged, to come again", cause, n, handled, msg)
		}
		again, err := tr.Listen(ctx, "Bob")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Receive(ctx, again, ReceiveOptions{Max: 1}, func(got *inbox.Message) error {
			if got.ID != m.ID {
				t.Errorf("%v: the next receive got %s, want %s again", cause, got.ID, m.ID)
			}
			return nil
		}); err != nil {
			t.Errorf("%v: the next receive: %v", cause, err)
		}
		again.Close()
	}
}

// A send that fails says nothing was delivered; an error of another call
// (making an inbox, listing agents) says what to check without claiming
// anything about delivery.
func TestOnlyAFailedSendSaysNothingWasDelivered(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, cause := range resourceFaults {
		o := newOutbox()
		o.inboxes["Ravi"] = nil
		o.sendErr = &os.PathError{Op: "open", Path: "inbox/Ravi/.x.tmp", Err: cause}
		_, err := Deliver(ctx, o, o, SendRequest{From: "deploy_bot", To: "Ravi", Text: "retry"})
		if !errors.Is(err, cause) || !strings.Contains(fmtErr(err), "nothing was delivered") {
			t.Errorf("a failed send (%v): %q; want it to say nothing was delivered", cause, fmtErr(err))
		}
		err = Explain(&os.PathError{Op: "mkdir", Path: "inbox/Ravi", Err: cause})
		if msg := fmtErr(err); !errors.Is(err, cause) || strings.Contains(msg, "delivered") || !strings.Contains(msg, "; ") {
			t.Errorf("another call (%v): %q; want what to do, and nothing about delivery", cause, msg)
		}
	}
}

func fmtErr(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// registerRefused is the file messenger with a registry that cannot
// write a registration (its directory not writable, the disk full).
type registerRefused struct {
	Backend
	cause syscall.Errno
}

type refusingRegistry struct {
	Registry
	cause syscall.Errno
}

func (b registerRefused) Registry() Registry { return refusingRegistry{b.Backend.Registry(), b.cause} }

func (r refusingRegistry) Register(_ context.Context, reg registry.Registration) (*registry.Registered, error) {
	return nil, &os.PathError{Op: "open", Path: filepath.Join(registry.Dir, "."+reg.Name+".tmp"), Err: r.cause}
}

var registerRefusedBackends sync.Once

// A watch whose registration cannot be written says that the name was
// not registered and nothing read, and which input only reads; never
// that nothing was delivered.
func TestAWatchThatCannotRegisterSaysSo(t *testing.T) {
	t.Parallel()
	registerRefusedBackends.Do(func() {
		for _, cause := range resourceFaults {
			RegisterBackend("test-register-"+cause.Error(), func(ctx context.Context, a *App, cfg *config.Config) (Backend, error) {
				b, err := openFiles(ctx, a, cfg)
				if err != nil {
					return nil, err
				}
				return registerRefused{b, cause}, nil
			})
		}
	})
	ctx := context.Background()
	for _, cause := range resourceFaults {
		root := t.TempDir()
		if _, err := New(Options{Root: root}).AddAgent(ctx, "Bob"); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, config.FileName), []byte(`{"transport":"test-register-`+cause.Error()+`"}`), 0o600); err != nil {
			t.Fatal(err)
		}
		err := New(Options{Root: root}).Watch(ctx, WatchRequest{As: "Bob", Register: true}, func(*inbox.Message) error {
			t.Error("a watch that did not register read a message")
			return nil
		})
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, cause) {
			t.Fatalf("%v: %v; want an *Error wrapping the cause", cause, err)
		}
		msg := e.Format(func(f string) string { return "<" + f + ">" })
		if strings.Contains(msg, "delivered") || !strings.Contains(msg, "Bob was not registered") || !strings.Contains(msg, "<no_register>") {
			t.Errorf("%v: %q; want Bob named as not registered and the input that only reads", cause, msg)
		}
	}
}

// Something other than a directory where an agent's inbox belongs (a
// file, a link) is named as what it is, and the hint is the way back: move
// it away, then "parley agents add NAME" makes the inbox again, which the
// test then does. What stands in place of one of parley's own directories
// is made again by the next command.
func TestWhatStandsInAnInboxsPlaceIsExplained(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, what := range []string{"regular file", "symbolic link"} {
		root := t.TempDir()
		a := New(Options{Root: root})
		if _, err := a.Init(ctx); err != nil {
			t.Fatal(err)
		}
		place := filepath.Join(root, inbox.InboxDir, "Bob")
		var err error
		if what == "regular file" {
			err = os.WriteFile(place, []byte("notes"), 0o600)
		} else {
			err = os.Symlink(t.TempDir(), place)
		}
		if err != nil {
			t.Fatal(err)
		}
		_, err = a.Send(ctx, SendRequest{From: "Ana", To: "Bob", Text: "standup moved"})
		msg := fmtErr(err)
		if !errors.Is(err, inbox.ErrUnsafePath) || !strings.Contains(msg, what) || !strings.Contains(msg, "parley agents add Bob") ||
			strings.Contains(msg, "parley init") || strings.Contains(msg, "follows") {
			t.Errorf("a %s at inbox/Bob: %q; want it named, and 'parley agents add Bob' after moving it away", what, msg)
		}
		if err := os.Remove(place); err != nil {
			t.Fatal(err)
		}
		if _, err := a.AddAgent(ctx, "Bob"); err != nil {
			t.Fatalf("parley agents add Bob after moving the %s away: %v", what, err)
		}
		if _, err := a.Send(ctx, SendRequest{From: "Ana", To: "Bob", Text: "standup moved"}); err != nil {
			t.Errorf("send once the inbox is made again: %v", err)
		}
	}

	root := t.TempDir()
	a := New(Options{Root: root})
	if err := os.WriteFile(filepath.Join(root, registry.Dir), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := a.AddAgent(ctx, "Bob")
	if msg := fmtErr(err); !errors.Is(err, registry.ErrUnsafePath) || strings.Contains(msg, "agents add") || !strings.Contains(msg, "try again") {
		t.Errorf("a file in place of registry/: %q; want it moved away and the command run again", msg)
	}
	if err := os.Remove(filepath.Join(root, registry.Dir)); err != nil {
		t.Fatal(err)
	}
	if _, err := a.AddAgent(ctx, "Bob"); err != nil {
		t.Errorf("the command again, once the file is moved away: %v", err)
	}
}

// A busy inbox names every kind of receiver that can hold it, a waiting
// recv included: "recv --wait" in another terminal is the usual one when a
// watch or an agent run is refused.
func TestABusyInboxNamesEveryReceiver(t *testing.T) {
	t.Parallel()
	busy := &inbox.DeliveryError{Op: "listen", Agent: "Bob", Path: "inbox/Bob/.lock", Err: inbox.ErrBusy}
	msg := Explain(busy).Error()
	for _, who := range []string{"'parley watch'", "waiting 'parley recv'", "running agent"} {
		if !strings.Contains(msg, who) {
			t.Errorf("%q does not name a %s", msg, who)
		}
	}
}

// A write refused because the root is on a read-only file system says so,
// and how to fix it; permissions, which it names for a refused permission,
// are not its cause (root, who may write anything, gets it too).
func TestAReadOnlyFileSystemIsNotAPermissionProblem(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	o := newOutbox()
	o.inboxes["Ravi"] = nil
	o.sendErr = &os.PathError{Op: "chtimesat", Path: ".from-deploy_bot", Err: syscall.EROFS}
	_, err := Deliver(ctx, o, o, SendRequest{From: "deploy_bot", To: "Ravi", Text: "retry"})
	msg := fmtErr(err)
	if !errors.Is(err, syscall.EROFS) || !IsProblem(err, ProblemMessenger) || !strings.Contains(msg, "nothing was delivered") ||
		!strings.Contains(msg, "read-only file system: remount it read-write") || strings.Contains(msg, "permissions") {
		t.Errorf("a send on a read-only file system: %q; want it to say the file system is read-only and how to fix it", msg)
	}
	err = Explain(&os.PathError{Op: "open", Path: "inbox/Ravi/.lock", Err: syscall.EROFS})
	if msg := fmtErr(err); !strings.Contains(msg, "read-only file system: remount it read-write") || strings.Contains(msg, "permissions") {
		t.Errorf("a receive on a read-only file system: %q", msg)
	}
}

// A send that failed once its message was in the inbox is said as the
// delivery error says it ("the message is in the inbox nonetheless"), not
// with the disk-full or permission wording of a send that left nothing
// ("nothing was delivered").
func TestAPlacedSendIsNotSaidUndelivered(t *testing.T) {
	t.Parallel()
	for _, cause := range []error{syscall.ENOSPC, syscall.EIO, syscall.EACCES} {
		err := &inbox.DeliveryError{Op: "send", Agent: "Bob", Path: "inbox/Bob/m.json",
			Err: &durable.PathError{Op: "sync", Path: ".", Err: cause, Placed: true}}
		got := explainLeft(err, leftNotSent).Error()
		if strings.Contains(got, "nothing was delivered") || !strings.Contains(got, "in the inbox nonetheless") {
			t.Errorf("%v: %q", cause, got)
		}
	}
	// Not placed: the disk-full wording, as before.
	err := &inbox.DeliveryError{Op: "send", Agent: "Bob", Err: &durable.PathError{Op: "create", Path: ".m", Err: syscall.ENOSPC}}
	if got := explainLeft(err, leftNotSent).Error(); !strings.Contains(got, "nothing was delivered") {
		t.Errorf("a send that left nothing: %q", got)
	}
}
