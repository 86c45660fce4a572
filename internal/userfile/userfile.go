// Package userfile opens the files a user names as input (gate FILE,
// --data, --context, --gate, --model, an agent script) and is the one
// judgement of what such a name may be: a regular file, or a stream to
// read once (a named pipe, process substitution's /dev/fd/N, a terminal).
// A directory, a socket or a block device is refused with one line that
// says so and what to name instead.
//
// Nothing it does blocks for good: a name is opened with O_NONBLOCK, so a
// named pipe that nobody writes to does not hold the caller in open(2),
// where not even a signal gets it out, and reading a stream ends with the
// caller's context (Ctrl-C).
//
// It imports nothing of parley but interrupt and regfile.
package userfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
	"time"

	"github.com/parleyhq/parley/internal/interrupt"
	"github.com/parleyhq/parley/internal/regfile"
)

// ErrNotFile is what an *Error wraps: the name is not a file to read.
var ErrNotFile = errors.New("not a file to read")

// Error refuses Name, which is not a file to read; errors.Is(err,
// ErrNotFile) holds.
type Error struct {
	Name string
	Mode fs.FileMode // the type bits of what was found
}

func (e *Error) Error() string {
	if e.Mode&fs.ModeNamedPipe != 0 {
		// Only OpenRegular refuses a pipe: what it opens is read again.
		return fmt.Sprintf("%s is a named pipe, which can be read only once: name a regular file", e.Name)
	}
	return fmt.Sprintf("%s is %s: name a file", e.Name, regfile.Kind(e.Mode))
}

func (e *Error) Is(target error) bool { return target == ErrNotFile }

// Open opens name for reading. A regular file is returned as it is. A
// named pipe or a character device (a terminal, /dev/null) is a stream:
// reading it waits, for a named pipe, until something writes to it or
// closes it, and the end of ctx ends the wait with an error wrapping
// interrupt.ErrInterrupted; the context is listened to only for a stream.
// Anything else is an *Error. A name that does not exist or cannot be
// opened is the *fs.PathError of the open.
//
// The caller closes what it gets; Close also stops watching ctx.
func Open(ctx context.Context, name string) (io.ReadCloser, error) {
	f, fi, err := open(name)
	if err != nil {
		return nil, err
	}
	m := fi.Mode()
	switch {
	case m.IsRegular():
		return f, nil
	case m&(fs.ModeNamedPipe|fs.ModeCharDevice) != 0:
		return newStream(ctx, f, m&fs.ModeNamedPipe != 0), nil
	}
	f.Close()
	return nil, &Error{Name: name, Mode: m.Type()}
}

// OpenRegular opens name for reading if it is a regular file, for an input
// that is read more than once (an agent script, read again by each agent
// that runs it): anything else, a named pipe too, is an *Error. It never
// blocks.
func OpenRegular(name string) (*os.File, fs.FileInfo, error) {
	f, fi, err := open(name)
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, &Error{Name: name, Mode: fi.Mode().Type()}
	}
	return f, fi, nil
}

// open opens name read-only without blocking and stats it. A socket,
// which cannot be opened (ENXIO), is an *Error.
func open(name string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, syscall.ENXIO) {
			if fi, serr := os.Stat(name); serr == nil && !fi.Mode().IsRegular() {
				return nil, nil, &Error{Name: name, Mode: fi.Mode().Type()}
			}
		}
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// stream is a named pipe or a device being read: the end of its context
// sets a read deadline in the past, which ends a read waiting for data.
type stream struct {
	ctx    context.Context
	f      *os.File
	pipe   bool // a named pipe: wait for a writer before the first read
	waited bool
	stop   func() bool
}

func newStream(ctx context.Context, f *os.File, pipe bool) *stream {
	s := &stream{ctx: ctx, f: f, pipe: pipe}
	s.stop = context.AfterFunc(ctx, func() { _ = f.SetReadDeadline(time.Unix(1, 0)) })
	return s
}

func (s *stream) Read(p []byte) (int, error) {
	if s.pipe && !s.waited {
		s.waited = true
		if err := waitWriter(s.f); err != nil {
			return 0, s.explain(err)
		}
	}
	n, err := s.f.Read(p)
	if err != nil && err != io.EOF {
		err = s.explain(err)
	}
	return n, err
}

// explain is a read's error: interrupt.ErrInterrupted when the context
// ended it (the caller names the file, as it does for any read's error).
func (s *stream) explain(err error) error {
	if s.ctx.Err() != nil && errors.Is(err, os.ErrDeadlineExceeded) {
		return interrupt.ErrInterrupted
	}
	return err
}

func (s *stream) Close() error {
	s.stop()
	return s.f.Close()
}
