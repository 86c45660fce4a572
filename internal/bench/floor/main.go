// Command floor is the floor "parley bench cli" measures parley against:
// the least a separate process can do to deliver one message durably, and
// the least a watcher can do to see it. It uses the standard library only
// and does no work at start-up, so that its figures are those of a minimal
// Go program: process start, one durable write, exit.
//
//	floor write DIR FROM TEXT   write one message file into DIR: a staging
//	                            file, fsync, rename, fsync of DIR
//	floor watch DIR             print each message file renamed into DIR
//	                            (its content, one line), then remove it
//	floor start                 nothing: a minimal Go process's start-up
//
// "parley bench cli" builds it from this source with the Go toolchain.
package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"
)

func main() {
	var err error
	switch {
	case len(os.Args) == 5 && os.Args[1] == "write":
		err = write(os.Args[2], os.Args[3], os.Args[4])
	case len(os.Args) == 2 && os.Args[1] == "start":
		// Nothing: the cost of starting a minimal Go process.
	case len(os.Args) == 3 && os.Args[1] == "watch":
		err = watch(os.Args[2])
	default:
		err = fmt.Errorf("usage: floor write DIR FROM TEXT | floor watch DIR | floor start")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}

func write(dir, from, text string) error {
	name := strconv.FormatInt(time.Now().UnixMilli(), 10) + "-" + strconv.Itoa(os.Getpid()) + ".json"
	tmp := filepath.Join(dir, "."+name+".tmp")
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(f, "{\"from\":%q,\"to\":\"floor\",\"text\":%q}\n", from, text); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		return err
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

func watch(dir string) error {
	fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC)
	if err != nil {
		return err
	}
	if _, err := syscall.InotifyAddWatch(fd, dir, syscall.IN_MOVED_TO); err != nil {
		return err
	}
	os.Stdout.WriteString("ready\n")
	buf := make([]byte, 64<<10)
	for {
		n, err := syscall.Read(fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		for off := 0; off+syscall.SizeofInotifyEvent <= n; {
			ev := (*syscall.InotifyEvent)(unsafe.Pointer(&buf[off]))
			raw := buf[off+syscall.SizeofInotifyEvent : off+syscall.SizeofInotifyEvent+int(ev.Len)]
			off += syscall.SizeofInotifyEvent + int(ev.Len)
			name := string(bytes.TrimRight(raw, "\x00"))
			if strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".json") {
				continue
			}
			path := filepath.Join(dir, name)
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			os.Stdout.Write(b)
			os.Remove(path)
		}
	}
}
