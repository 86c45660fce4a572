package durable

import (
	"io/fs"
	"sync"

	"github.com/parleyhq/parley/internal/lean"
)

// FaultFS wraps an FS and fails chosen operations, for tests that inject
// ENOSPC, EACCES or a crash between two steps of a write. It is safe for
// concurrent use.
type FaultFS struct {
	FS FS

	mu    sync.Mutex
	rules []faultRule
}

type faultRule struct {
	op    string // "open", "write", "sync", "rename", "link", "remove"
	match string // substring of the name; "" matches every name
	err   error
	times int // <= 0: every time
}

// Fail makes op fail with err on names containing match (every name when
// match is empty). times limits how often it fires; 0 means always.
// Ops: open, write, sync, rename, link, remove.
func (f *FaultFS) Fail(op, match string, err error, times int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.rules = append(f.rules, faultRule{op: op, match: match, err: err, times: times})
}

// Reset removes every rule.
func (f *FaultFS) Reset() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.rules = nil
}

func (f *FaultFS) fault(op, name string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := range f.rules {
		r := &f.rules[i]
		if r.op != op || !lean.Contains(name, r.match) || r.times < 0 {
			continue
		}
		if r.times > 0 {
			r.times--
			if r.times == 0 {
				r.times = -1
			}
		}
		return r.err
	}
	return nil
}

func (f *FaultFS) OpenFile(name string, flag int, perm fs.FileMode) (File, error) {
	if err := f.fault("open", name); err != nil {
		return nil, err
	}
	file, err := f.FS.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return &faultFile{File: file, fs: f, name: name}, nil
}

func (f *FaultFS) Rename(oldname, newname string) error {
	if err := f.fault("rename", newname); err != nil {
		return err
	}
	return f.FS.Rename(oldname, newname)
}

func (f *FaultFS) Link(oldname, newname string) error {
	if err := f.fault("link", newname); err != nil {
		return err
	}
	return f.FS.Link(oldname, newname)
}

func (f *FaultFS) Remove(name string) error {
	if err := f.fault("remove", name); err != nil {
		return err
	}
	return f.FS.Remove(name)
}

type faultFile struct {
	File
	fs   *FaultFS
	name string
}

func (f *faultFile) Write(p []byte) (int, error) {
	if err := f.fs.fault("write", f.name); err != nil {
		// Like a full disk: part of the data may have reached the file.
		n, _ := f.File.Write(p[:len(p)/2])
		return n, err
	}
	return f.File.Write(p)
}

func (f *faultFile) Sync() error {
	if err := f.fs.fault("sync", f.name); err != nil {
		return err
	}
	return f.File.Sync()
}
