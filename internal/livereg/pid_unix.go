//go:build unix

package livereg

import (
	"bytes"
	"errors"
	"math"
	"strconv"
	"syscall"
)

// PIDAlive reports whether a process with this id runs on this host. A
// process of another user (EPERM) counts as alive; a zombie (state Z in
// /proc/PID/stat: it has exited and only waits for its parent to reap it)
// does not. In a container without an init process a killed agent stays a
// zombie until its parent exits, and it must not hold its name meanwhile.
// An id beyond a process id's 32 bits is no process: kill(2) would read
// its low bits (2³² as 0, this process's group).
func PIDAlive(pid int) bool {
	if pid <= 0 || pid > math.MaxInt32 {
		return false
	}
	err := syscall.Kill(pid, 0)
	if err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	return !zombie(pid)
}

// zombie reports whether /proc/PID/stat shows the process as a zombie (Z)
// or dead (X). Without /proc (not Linux) nothing is a zombie.
func zombie(pid int) bool {
	// Read with plain system calls: open, read, close (os.ReadFile adds an
	// fstat and five calls that try the file on the network poller).
	fd, err := syscall.Open("/proc/"+strconv.Itoa(pid)+"/stat", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	defer syscall.Close(fd)
	// The state is the field after the pid and the command name (at most
	// 16 bytes, in parentheses), and nothing after it holds a ')': the
	// first 512 bytes of the line are enough.
	var buf [512]byte
	n, err := syscall.Read(fd, buf[:])
	if err != nil || n <= 0 {
		return false
	}
	return ZombieStat(buf[:n])
}

// ZombieStat reads the state field of a /proc/PID/stat line: the field
// after the command name, which is in parentheses and may itself hold
// spaces and parentheses (so the last ')' ends it).
func ZombieStat(stat []byte) bool {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return false
	}
	f := bytes.Fields(stat[i+1:])
	return len(f) > 0 && (string(f[0]) == "Z" || string(f[0]) == "X")
}
