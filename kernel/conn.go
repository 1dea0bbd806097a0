package kernel

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"strconv"
)

// ConnectionInfo is the content of a Jupyter connection file.
type ConnectionInfo struct {
	// Transport is "tcp" or "ipc".
	Transport string `json:"transport"`
	// IP is the address to bind (or the ipc path prefix).
	IP string `json:"ip"`
	// ShellPort is the shell ROUTER port.
	ShellPort int `json:"shell_port"`
	// ControlPort is the control ROUTER port.
	ControlPort int `json:"control_port"`
	// IOPubPort is the iopub PUB port.
	IOPubPort int `json:"iopub_port"`
	// StdinPort is the stdin ROUTER port.
	StdinPort int `json:"stdin_port"`
	// HBPort is the heartbeat REP port.
	HBPort int `json:"hb_port"`
	// Key is the HMAC key; empty disables signing.
	Key string `json:"key"`
	// SignatureScheme is "hmac-sha256".
	SignatureScheme string `json:"signature_scheme"`
	// KernelName is the kernelspec name the client started.
	KernelName string `json:"kernel_name,omitempty"`
}

// ReadConnectionFile reads and validates a connection file.
func ReadConnectionFile(path string) (ConnectionInfo, error) {
	var ci ConnectionInfo
	b, err := os.ReadFile(path)
	if err != nil {
		return ci, fmt.Errorf("read connection file: %w", err)
	}
	if err := json.Unmarshal(b, &ci); err != nil {
		return ci, fmt.Errorf("parse connection file %s: %w", path, err)
	}
	if err := ci.validate(); err != nil {
		return ci, fmt.Errorf("connection file %s: %w", path, err)
	}
	return ci, nil
}

// validate checks the transport, address and ports.
func (ci *ConnectionInfo) validate() error {
	if ci.Transport == "" {
		ci.Transport = "tcp"
	}
	if ci.Transport != "tcp" && ci.Transport != "ipc" {
		return fmt.Errorf("transport %q: want tcp or ipc", ci.Transport)
	}
	if ci.IP == "" {
		return fmt.Errorf("no ip")
	}
	ports := map[string]int{"shell_port": ci.ShellPort, "control_port": ci.ControlPort,
		"iopub_port": ci.IOPubPort, "stdin_port": ci.StdinPort, "hb_port": ci.HBPort}
	for name, p := range ports {
		if p <= 0 || p > 65535 {
			return fmt.Errorf("%s %d out of range", name, p)
		}
	}
	if _, err := NewSigner(ci.SignatureScheme, ci.Key); err != nil {
		return err
	}
	return nil
}

// endpoint returns the ZeroMQ endpoint for port under the zmq4 transport scheme.
func (ci ConnectionInfo) endpoint(scheme string, port int) string {
	if ci.Transport == "ipc" {
		return scheme + "://" + ci.ipcPath(port)
	}
	ip := ci.IP
	if ip == "*" {
		ip = "0.0.0.0"
	}
	return scheme + "://" + net.JoinHostPort(ip, strconv.Itoa(port))
}

// ipcPath is the socket file of port with the ipc transport, as libzmq names it.
func (ci ConnectionInfo) ipcPath(port int) string {
	return fmt.Sprintf("%s-%d", ci.IP, port)
}
