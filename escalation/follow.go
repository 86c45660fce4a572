package escalation

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/parleyhq/parley/internal/regfile"
)

// DefaultReconcile is how often Follow checks the file whatever the
// watcher says.
const DefaultReconcile = time.Second

// Source is where a line came from.
type Source struct {
	// Path is the file; Generation counts the files Follow has read at
	// that path (1 for the first, +1 after each rotation or truncation).
	Path       string
	Generation int
}

// FollowOptions tune Follow. The zero value is the default.
type FollowOptions struct {
	// Reconcile is the period of the check that does not rely on the
	// watcher (default DefaultReconcile).
	Reconcile time.Duration
	// NoWatcher disables fsnotify: only the periodic check reads (tests).
	NoWatcher bool
	Logger    *slog.Logger
	// Incomplete, when set, is told about a partial last line dropped
	// because its file was rotated or truncated before its newline came.
	Incomplete func(src Source, line int)
}

// Follow reads the file at path from its start and then every line
// appended to it, until ctx ends (it then returns nil), calling handle for
// each complete line on the caller's goroutine. An error from handle stops
// it and is returned.
//
// No line is lost to a missed notification: fsnotify on the file's
// directory wakes it at once (no debounce, so a steady stream cannot starve
// it), and a check every opts.Reconcile reads whatever a lost or
// overflowed event left. A partial last line is held until its newline
// arrives. When the file is replaced (rotated: a new file at the path),
// the old one is read to its end first, then the new one from its start;
// when it is truncated (or rewritten in place: the bytes before where it
// was read have changed), it is read again from its start. Lines read twice
// that way are the caller's to recognise (the escalation ledger does, by
// record key). A file that does not exist yet is waited for.
func Follow(ctx context.Context, path string, opts FollowOptions, handle func(Source, Line) error) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	log = log.With("path", abs)
	if opts.Reconcile <= 0 {
		opts.Reconcile = DefaultReconcile
	}
	wake := make(chan struct{}, 1)
	poke := func() {
		select {
		case wake <- struct{}{}:
		default:
		}
	}
	if !opts.NoWatcher {
		stop, err := watchDir(ctx, abs, log, poke)
		if err != nil {
			log.Warn("no file watcher; following by periodic checks only", "op", "watch", "err", err)
		} else {
			defer stop()
		}
	}
	t := &tail{path: abs, log: log, handle: handle, incomplete: opts.Incomplete}
	defer t.close()
	tick := time.NewTicker(opts.Reconcile)
	defer tick.Stop()
	for {
		if err := t.read(); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return nil
		case <-wake:
		case <-tick.C:
		}
	}
}

// watchDir watches the directory of path and pokes on every event that
// names path, and on watcher errors (an overflow may have lost events). The
// goroutine it starts is stopped by the returned function, which waits
// for it.
func watchDir(ctx context.Context, path string, log *slog.Logger, poke func()) (func(), error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	if err := w.Add(filepath.Dir(path)); err != nil {
		w.Close()
		return nil, err
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				if ev.Name == path {
					poke()
				}
			case err, ok := <-w.Errors:
				if !ok {
					return
				}
				log.Warn("file watcher error; reading the file again", "op", "watch", "err", err)
				poke()
			case <-ctx.Done():
				return
			}
		}
	}()
	return func() { w.Close(); <-done }, nil
}

// tail is the file being followed: its descriptor, how far it was read,
// and the scanner holding a partial last line.
type tail struct {
	path       string
	log        *slog.Logger
	handle     func(Source, Line) error
	incomplete func(Source, int)

	f   *os.File
	ino uint64
	off int64
	gen int
	sc  Scanner
	buf []byte
	// last are the last bytes read (up to lastBytes), which a file
	// rewritten in place no longer holds before off.
	last []byte

	// checking, when set, is called after the file was read to its end
	// and before its path is checked for a rotation (tests: a line
	// appended to the old file in that gap).
	checking func()
}

func (t *tail) close() {
	if t.f != nil {
		t.f.Close()
		t.f = nil
	}
}

// read reads what the file holds beyond what was read, following a
// rotation or a truncation.
func (t *tail) read() error {
	for {
		if t.f == nil {
			if err := t.open(); err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil // not there yet, or rotated away: wait
				}
				return err
			}
		} else if t.rewritten() {
			t.restart()
		}
		if err := t.drain(); err != nil {
			return err
		}
		if t.checking != nil {
			t.checking()
		}
		st, err := os.Stat(t.path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil // moved away and not recreated yet: keep the old one
		case err != nil:
			return fmt.Errorf("stat %s: %w", t.path, err)
		case inode(st) != t.ino:
			// Rotated. What was written to the old file before the new
			// one appeared is read now: the read above may have run
			// before the last of it was written (a line appended after
			// the move, then the new file created).
			if err := t.drain(); err != nil {
				return err
			}
			t.drop("rotated")
			t.close()
			continue
		case st.Size() < t.off:
			t.restart()
			continue
		}
		return nil
	}
}

// restart reads the file again from its start: it was truncated in place,
// or truncated and written again past where it was read.
func (t *tail) restart() {
	t.drop("truncated")
	t.log.Info("the telemetry file was truncated; reading it from its start", "op", "follow")
	t.off = 0
	t.last = t.last[:0]
	t.sc.Reset()
	t.gen++
}

// drop reports a partial last line given up.
func (t *tail) drop(why string) {
	if t.sc.Pending() {
		t.log.Warn("a partial last line was given up: its file was "+why+" before its newline came", "op", "follow")
		if t.incomplete != nil {
			t.incomplete(Source{Path: t.path, Generation: t.gen}, t.sc.Lines()+1)
		}
	}
}

func (t *tail) open() error {
	// Non-blocking, a regular file only: a named pipe at the path must not
	// block Follow in open(2) (where not even ctx ends it).
	f, st, err := regfile.Open(os.OpenFile, t.path)
	if err != nil {
		return err
	}
	t.f, t.ino, t.off = f, inode(st), 0
	t.last = t.last[:0]
	t.gen++
	t.sc.Reset()
	return nil
}

func (t *tail) drain() error {
	if t.buf == nil {
		t.buf = make([]byte, 64<<10)
	}
	src := Source{Path: t.path, Generation: t.gen}
	for {
		n, err := t.f.ReadAt(t.buf, t.off)
		if n > 0 {
			t.off += int64(n)
			t.remember(t.buf[:n])
			if herr := t.sc.Feed(t.buf[:n], func(l Line) error { return t.handle(src, l) }); herr != nil {
				return herr
			}
		}
		if errors.Is(err, io.EOF) || n == 0 {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", t.path, err)
		}
	}
}

// lastBytes is how many of the last bytes read a tail keeps to notice a
// file rewritten in place.
const lastBytes = 64

// remember keeps the last lastBytes of what was read, b included.
func (t *tail) remember(b []byte) {
	if len(b) >= lastBytes {
		t.last = append(t.last[:0], b[len(b)-lastBytes:]...)
		return
	}
	t.last = append(t.last, b...)
	if extra := len(t.last) - lastBytes; extra > 0 {
		t.last = append(t.last[:0], t.last[extra:]...)
	}
}

// rewritten reports whether the file no longer holds, just before off,
// the bytes that were read there: it was truncated and written again
// past off between two checks, which its size alone does not show.
func (t *tail) rewritten() bool {
	if len(t.last) == 0 {
		return false
	}
	b := make([]byte, len(t.last))
	n, _ := t.f.ReadAt(b, t.off-int64(len(b)))
	return n < len(b) || !bytes.Equal(b, t.last)
}

func inode(st fs.FileInfo) uint64 {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return s.Ino
	}
	return 0
}
