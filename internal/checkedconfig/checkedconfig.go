// Package checkedconfig keeps, in a parley root, the config.json a parley
// binary last loaded for a send over the file messenger, and what of it a
// send uses, so that the plainest send (internal/quicksend) can take a
// root with settings without loading them.
//
// Loading config.json as the command does (config.Load: strict JSON,
// every section checked) needs the config package, whose dependencies
// (net/http and its TLS) bring back the start-up the fast path exists to
// spare. So the command, once it has loaded a config.json and opened the
// file messenger it selects for a send, keeps the file's bytes here with
// what made the check (Self: the binary's build ID and file, and
// $GODEBUG, which changes what some checks accept) and the registration
// TTL the file sets (Keep). The fast path sends in such a root only when
// the config.json it reads now is that copy byte for byte, it is itself
// that checker, and both files pass the checks the command makes of
// config.json (a regular file, inside the root, owned by the user and
// writable by no one else); anything else (no copy yet, another file,
// another binary) is left to the command, which keeps the copy for the
// next send. Deleting the copy costs the next send its start-up, nothing
// more. It is trusted as config.json is: like config.json, it is the
// user's own file, which parley writes and nobody should edit.
package checkedconfig

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/parleyhq/parley/internal/drop"
	"github.com/parleyhq/parley/internal/trust"
)

// FileName is the copy's name in the root, beside config.json.
const FileName = ".config.json.checked"

// ConfigName is config.json's name in the root: config.FileName, written
// out so that the fast path imports no config (app's tests hold the two
// equal).
const ConfigName = "config.json"

// maxBytes bounds what is read of either file: config.json's own limit
// (config.MaxBytes), with room for the copy's header.
const maxBytes = 1<<20 + 1<<12

// header starts the copy; the checker (Self), the TTL and an empty line
// follow, then config.json's bytes.
const header = "parley: config.json as checked for a send over the file messenger\n"

// staleStaging is the age after which a staging file of Keep's is left
// over by a process that died writing it, and Keep removes it.
const staleStaging = time.Minute

// Keep records that config (config.json's bytes, as config.Load read and
// accepted them) was checked by self (Self) and sets a registration TTL of
// ttl: it writes the copy into root (through os.Root, so that it stays
// inside), unless the copy there already says so. The write replaces the
// file whole (a new file renamed over it), so that a reader sees the old
// copy or the new one; staging files that killed processes left are
// removed.
func Keep(r *os.Root, self string, ttl time.Duration, config []byte) error {
	if self == "" || ttl <= 0 {
		return errors.New("checkedconfig: no checker or TTL to keep")
	}
	want := encode(self, ttl, config)
	if have, err := read(r, FileName, len(want)); err == nil && bytes.Equal(have, want) {
		return nil
	}
	removeStale(r, time.Now())
	tmp := FileName + "." + drop.Rand4() + drop.Rand4() + stagingSuffix
	f, err := r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(want)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = r.Rename(tmp, FileName)
	}
	if err != nil {
		_ = r.Remove(tmp)
	}
	return err
}

const stagingSuffix = ".tmp"

// removeStale removes Keep's staging files older than staleStaging.
func removeStale(r *os.Root, now time.Time) {
	d, err := r.Open(".")
	if err != nil {
		return
	}
	defer d.Close()
	names, _ := d.Readdirnames(-1)
	for _, n := range names {
		if len(n) <= len(FileName)+1+len(stagingSuffix) || n[:len(FileName)+1] != FileName+"." || n[len(n)-len(stagingSuffix):] != stagingSuffix {
			continue
		}
		if fi, err := r.Lstat(n); err == nil && fi.Mode().IsRegular() && now.Sub(fi.ModTime()) > staleStaging {
			_ = r.Remove(n)
		}
	}
}

// TTL is the registration TTL a send in root uses, when root's config.json
// is the copy Keep recorded for self: ok is false when it is not, when
// either file fails the command's checks of config.json, or when self is
// empty.
func TTL(r *os.Root, self string) (ttl time.Duration, ok bool) {
	if self == "" {
		return 0, false
	}
	copied, err := read(r, FileName, maxBytes)
	if err != nil {
		return 0, false
	}
	ttl, config, ok := decode(copied, self)
	if !ok {
		return 0, false
	}
	// One byte more than the copy's, to tell a longer config.json.
	now, err := read(r, ConfigName, len(config)+1)
	if err != nil || !bytes.Equal(now, config) {
		return 0, false
	}
	return ttl, true
}

func encode(self string, ttl time.Duration, config []byte) []byte {
	b := make([]byte, 0, len(header)+len(self)+len(config)+64)
	b = append(append(append(b, header...), self...), '\n')
	b = append(strconv.AppendInt(append(b, "heartbeatTtlNs "...), int64(ttl), 10), '\n', '\n')
	return append(b, config...)
}

// decode reads a copy written by Keep for self.
func decode(b []byte, self string) (ttl time.Duration, config []byte, ok bool) {
	rest, ok := bytes.CutPrefix(b, []byte(header))
	if !ok {
		return 0, nil, false
	}
	if rest, ok = bytes.CutPrefix(rest, []byte(self+"\n")); !ok {
		return 0, nil, false
	}
	line, config, ok := bytes.Cut(rest, []byte{'\n'})
	ns, found := bytes.CutPrefix(line, []byte("heartbeatTtlNs "))
	if !ok || !found || !bytes.HasPrefix(config, []byte{'\n'}) {
		return 0, nil, false
	}
	n, err := strconv.ParseInt(string(ns), 10, 64)
	if err != nil || n <= 0 {
		return 0, nil, false
	}
	return time.Duration(n), config[1:], true
}

// read reads the file name in r as config.Load reads config.json
// (trust.Open), of at most limit bytes (a longer one is an error).
func read(r *os.Root, name string, limit int) ([]byte, error) {
	f, err := trust.Open(name, r, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err != nil {
		return nil, err
	}
	if len(b) > limit {
		return nil, errors.New("checkedconfig: " + name + " is longer than expected")
	}
	return b, nil
}
