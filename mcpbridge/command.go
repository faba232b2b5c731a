package mcpbridge

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Times of a command's end.
const (
	// terminateAfter is how long Close waits for the command to exit after
	// closing its standard input, then after SIGTERM, before it kills it (as
	// mcp.CommandTransport).
	terminateAfter = 5 * time.Second
	// exitGrace is how long what the command wrote before it exited is still
	// read when its standard output stays open (a process it started holds
	// it): then the connection ends.
	exitGrace = time.Second
)

// commandTransport runs a command as an MCP server on its standard input and
// output, as mcp.CommandTransport does, with two differences: each line read
// is bounded by maxLine (mcp.IOTransport's MaxLineLength), and the
// connection ends when the command exits, even when a process it started (a
// launcher such as npx, uvx or a shell script) keeps its standard output
// open: the calls under way, and later ones, fail at once instead of
// waiting for their deadline.
type commandTransport struct {
	cmd     *exec.Cmd
	maxLine int
}

func (t *commandTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	if t.cmd.Stdout != nil {
		return nil, errors.New("mcpbridge: the command's Stdout is already set")
	}
	stdin, err := t.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	r, w, err := os.Pipe()
	if err != nil {
		stdin.Close()
		return nil, err
	}
	t.cmd.Stdout = w
	if err := t.cmd.Start(); err != nil {
		r.Close()
		w.Close()
		return nil, err
	}
	w.Close() // the command's now
	p := &process{cmd: t.cmd, stdin: stdin, stdout: r, exited: make(chan struct{})}
	go p.wait()
	return (&mcp.IOTransport{Reader: io.NopCloser(p), Writer: p, MaxLineLength: t.maxLine}).Connect(ctx)
}

// process is the connection to a command: it reads its standard output and
// writes its standard input. Close closes its standard input, and ends it.
type process struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *os.File
	exited chan struct{} // closed when the command has exited, with err
	err    error
}

// wait waits for the command to exit, then bounds what is left to read.
func (p *process) wait() {
	p.err = p.cmd.Wait()
	close(p.exited)
	// Without a process that inherited it, the pipe ends (EOF) once read:
	// the deadline only matters when one did.
	if p.stdout.SetReadDeadline(time.Now().Add(exitGrace)) != nil {
		time.AfterFunc(exitGrace, func() { p.stdout.Close() })
	}
}

func (p *process) Read(b []byte) (int, error) {
	n, err := p.stdout.Read(b)
	if err != nil && err != io.EOF {
		select {
		case <-p.exited:
			err = fmt.Errorf("the command has exited (%v) and another process holds its output open", p.err)
		default:
		}
	}
	return n, err
}

func (p *process) Write(b []byte) (int, error) {
	n, err := p.stdin.Write(b)
	if err != nil {
		select {
		case <-p.exited:
			err = fmt.Errorf("the command has exited (%v)", p.err)
		default:
		}
	}
	return n, err
}

// Close closes the command's standard input and waits for it to exit; after
// terminateAfter it sends SIGTERM (where there is one), after as long again
// it kills it.
func (p *process) Close() error {
	defer p.stdout.Close()
	if err := p.stdin.Close(); err != nil {
		return fmt.Errorf("closing the command's standard input: %v", err)
	}
	exited := func() bool {
		select {
		case <-p.exited:
			return true
		case <-time.After(terminateAfter):
			return false
		}
	}
	if exited() {
		return p.err
	}
	if p.cmd.Process.Signal(syscall.SIGTERM) == nil && exited() {
		return p.err
	}
	if err := p.cmd.Process.Kill(); err != nil {
		return err
	}
	if exited() {
		return p.err
	}
	return errors.New("the command does not end")
}
