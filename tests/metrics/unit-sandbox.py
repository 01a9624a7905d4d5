#!/usr/bin/python3
"""Runs a systemd service's ExecStart under its unit's restrictions, without
systemd (CI and the development VM have no systemd as PID 1, so the unit
cannot be started). Used by tests/metrics/tst_metrics_unit.

    unit-sandbox.py UNIT --program PATH --bind HOSTDIR:UNITDIR ... [--probe]

What is imposed, as the unit says it (each only when the unit sets it):
  bubblewrap (namespaces and mounts):
    ProtectSystem=strict   the whole tree read-only (--ro-bind / /), with
    ReadWritePaths=        ... and BindPaths= writable; the test's folders
                           (--bind) stand in for the unit's, never the real
                           ones, writable only where the unit says so
    ProtectHome=tmpfs      empty tmpfs on /home and /root (under the bindings)
    PrivateTmp=            empty /tmp and /var/tmp
    PrivateDevices=        a minimal /dev (null, zero, random, tty...)
    PrivateNetwork=        a network namespace with only loopback
    CapabilityBoundingSet= every capability but the unit's dropped (empty:
                           all), the bounding set too
    NoNewPrivileges=       (bubblewrap always sets no_new_privs)
  this script, in the sandbox, before exec:
    Environment=, UMask=, MemoryDenyWriteExecute= (prctl PR_SET_MDWE),
    SystemCallFilter= with SystemCallErrorNumber= (libseccomp, the groups
    expanded by `systemd-analyze syscall-filter`), RestrictAddressFamilies=
    (socket() with another family fails)
Not imposed (systemd alone does them): ProtectKernelTunables/Modules/Logs,
ProtectControlGroups, ProtectClock, ProtectHostname, ProtectProc,
RestrictNamespaces, RestrictRealtime, RestrictSUIDSGID, LockPersonality,
IPAddressDeny, DevicePolicy, Nice, IOSchedulingClass, the Condition*=.

--probe runs a self-check inside the same sandbox instead of ExecStart, so a
test can see that each restriction is really in force.
"""
import argparse
import ctypes
import errno
import os
import shlex
import socket
import subprocess
import sys


def service_section(path):
    """The [Service] keys, in order, as (key, value) pairs."""
    out, section = [], None
    with open(path) as f:
        for raw in f:
            line = raw.strip()
            if not line or line.startswith(('#', ';')):
                continue
            if line.startswith('['):
                section = line.strip('[]')
            elif section == 'Service' and '=' in line:
                key, value = line.split('=', 1)
                out.append((key.strip(), value.strip()))
    return out


def values(unit, key):
    return [v for k, v in unit if k == key]


def last(unit, key, default=None):
    found = values(unit, key)
    return found[-1] if found else default


def yes(unit, key):
    return (last(unit, key) or 'no').lower() in ('yes', 'true', '1', 'on', 'strict', 'full', 'tmpfs', 'read-only')


def expand_syscalls(names, seen=None):
    """systemd's syscall groups (@name) expanded to syscall names."""
    seen = set() if seen is None else seen
    out = set()
    for name in names:
        if not name.startswith('@'):
            out.add(name)
            continue
        if name in seen:
            continue
        seen.add(name)
        text = subprocess.run(['systemd-analyze', 'syscall-filter', name], check=True, capture_output=True,
                              text=True).stdout
        members = [l.strip() for l in text.splitlines()[1:] if l.startswith('    ') and not l.strip().startswith('#')]
        out |= expand_syscalls(members, seen)
    return out


def syscall_allowlist(unit):
    """SystemCallFilter= lines as systemd reads them: the first sets an allow
    list, a later `~...` takes names out of it."""
    allowed = None
    for line in values(unit, 'SystemCallFilter'):
        deny = line.startswith('~')
        names = expand_syscalls(line.lstrip('~').split())
        if allowed is None:
            if deny:
                return None  # a deny list: not what this unit uses
            allowed = set(names)
        elif deny:
            allowed -= names
        else:
            allowed |= names
    return allowed


def bwrap_command(unit, binds, inner, own):
    cmd = ['bwrap', '--die-with-parent', '--new-session']
    if last(unit, 'ProtectSystem') == 'strict':
        cmd += ['--ro-bind', '/', '/']
    else:
        cmd += ['--bind', '/', '/']
    cmd += ['--proc', '/proc']
    if yes(unit, 'PrivateDevices'):
        cmd += ['--dev', '/dev']
    else:
        cmd += ['--dev-bind', '/dev', '/dev']
    if yes(unit, 'PrivateTmp'):
        cmd += ['--tmpfs', '/tmp', '--tmpfs', '/var/tmp']
    if last(unit, 'ProtectHome') == 'tmpfs':
        cmd += ['--tmpfs', '/home', '--tmpfs', '/root']
    # This script, the unit and the program as the test names them, which
    # an installed unit would find in /usr: read-only again where the
    # tmpfs above hid them (a clone in /tmp, a build in /root).
    for path in own:
        cmd += ['--ro-bind', path, path]
    # The test's folders stand in for the unit's places; writable only where
    # the unit's ReadWritePaths=/BindPaths= say so (else read-only, as
    # ProtectSystem=strict leaves them).
    writable = [p.lstrip('-') for line in values(unit, 'ReadWritePaths') + values(unit, 'BindPaths')
                for p in line.split()]
    for host, there in binds:
        allowed = any(there == w or there.startswith(w.rstrip('/') + '/') for w in writable)
        cmd += ['--bind' if allowed else '--ro-bind', host, there]
    if yes(unit, 'PrivateNetwork'):
        cmd += ['--unshare-net']
    bounding = last(unit, 'CapabilityBoundingSet', None)
    if bounding is not None:
        # The unit's capabilities and CAP_SETPCAP, which restrict_here() needs
        # to narrow the bounding set (bubblewrap leaves it full) before it
        # drops that too.
        cmd += ['--cap-drop', 'ALL', '--cap-add', 'CAP_SETPCAP']
        for cap in bounding.split():
            cmd += ['--cap-add', cap]
    return cmd + ['--'] + inner


# The capabilities a unit here may keep (linux/capability.h).
CAPABILITIES = {'CAP_DAC_OVERRIDE': 1, 'CAP_DAC_READ_SEARCH': 2, 'CAP_SYS_ADMIN': 21,
                'CAP_SYS_RESOURCE': 24, 'CAP_PERFMON': 38, 'CAP_BPF': 39}


def keep_capabilities(libc, names):
    """CapabilityBoundingSet=NAMES (empty: none): the bounding set narrowed to
    them, then the effective and permitted sets set to them and the
    inheritable set emptied, so that an exec as root gains nothing more."""
    try:
        keep = {CAPABILITIES[n] for n in names}
    except KeyError as e:
        sys.exit('unit-sandbox: capability %s is not one this script knows' % e)
    # One this process has not got (a container's bounding set) cannot be
    # kept: the program runs with less than the unit would give it.
    with open('/proc/self/status') as f:
        have = next(int(l.split()[1], 16) for l in f if l.startswith('CapBnd:'))
    keep = {cap for cap in keep if have & (1 << cap)}
    PR_CAPBSET_DROP = 24
    last_cap = int(open('/proc/sys/kernel/cap_last_cap').read())
    for cap in range(last_cap + 1):
        if cap in keep:
            continue
        if libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            sys.exit('unit-sandbox: PR_CAPBSET_DROP %d: %s' % (cap, os.strerror(ctypes.get_errno())))

    class Header(ctypes.Structure):
        _fields_ = [('version', ctypes.c_uint32), ('pid', ctypes.c_int)]

    class Data(ctypes.Structure):
        _fields_ = [('effective', ctypes.c_uint32), ('permitted', ctypes.c_uint32),
                    ('inheritable', ctypes.c_uint32)]
    header = Header(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3
    data = (Data * 2)()
    for cap in keep:
        data[cap // 32].effective |= 1 << (cap % 32)
        data[cap // 32].permitted |= 1 << (cap % 32)
    if libc.capset(ctypes.byref(header), data) != 0:
        sys.exit('unit-sandbox: capset: %s' % os.strerror(ctypes.get_errno()))


def restrict_here(unit):
    """Inside the sandbox: what bubblewrap cannot do, then exec."""
    os.environ.clear()
    os.environ['PATH'] = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin'
    for line in values(unit, 'Environment'):
        for assignment in shlex.split(line):
            key, value = assignment.split('=', 1)
            os.environ[key] = value
    umask = last(unit, 'UMask')
    if umask:
        os.umask(int(umask, 8))
    libc = ctypes.CDLL(None, use_errno=True)
    bounding = last(unit, 'CapabilityBoundingSet', None)
    if bounding is not None:
        keep_capabilities(libc, bounding.split())
    if yes(unit, 'MemoryDenyWriteExecute'):
        PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN = 65, 1
        if libc.prctl(PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN, 0, 0, 0) != 0:
            sys.exit('unit-sandbox: prctl(PR_SET_MDWE): %s' % os.strerror(ctypes.get_errno()))
    allowed = syscall_allowlist(unit)
    families = last(unit, 'RestrictAddressFamilies')
    if allowed is not None:
        import seccomp
        err = getattr(errno, last(unit, 'SystemCallErrorNumber', 'EPERM'))
        f = seccomp.SyscallFilter(defaction=seccomp.ERRNO(err))
        for name in sorted(allowed - {'socket'}):
            try:
                f.add_rule(seccomp.ALLOW, name)
            except (RuntimeError, ValueError):
                pass  # a name this architecture does not have
        if 'socket' in allowed:
            if families and families != 'none':
                for fam in families.split():
                    f.add_rule(seccomp.ALLOW, 'socket', seccomp.Arg(0, seccomp.EQ, getattr(socket, fam)))
            elif not families:
                f.add_rule(seccomp.ALLOW, 'socket')
        f.load()


def probe():
    """What a test looks at: each restriction in force, one line each."""
    def tried(what, fn):
        try:
            fn()
            print('%s: allowed' % what)
        except OSError as e:
            print('%s: refused (%s)' % (what, errno.errorcode.get(e.errno, e.errno)))
    with open('/proc/self/status') as f:
        for line in f:
            if line.startswith(('CapEff', 'CapPrm', 'CapBnd', 'NoNewPrivs')):
                print(line.strip().replace('\t', ' '))
    print('umask: %03o' % os.umask(0o077))
    print('home entries: %d' % len(os.listdir('/home')))
    with open('/proc/self/net/dev') as f:
        names = sorted(l.split(':')[0].strip() for l in f.readlines()[2:])
    print('net interfaces: %s' % ' '.join(names))
    tried('write /etc', lambda: open('/etc/blocktune-sandbox-probe', 'w'))
    tried('write /var/lib/prometheus/node-exporter', lambda: os.unlink(
        open('/var/lib/prometheus/node-exporter/.probe', 'w').name))
    tried('socket AF_INET', lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM).close())
    tried('socket AF_UNIX', lambda: socket.socket(socket.AF_UNIX, socket.SOCK_STREAM).close())
    tried('socket AF_NETLINK', lambda: socket.socket(socket.AF_NETLINK, socket.SOCK_RAW).close())
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]

    def wx():
        p = libc.mmap(None, 4096, 0x1 | 0x2 | 0x4, 0x02 | 0x20, -1, 0)  # RWX, private anonymous
        if p in (None, ctypes.c_void_p(-1).value):
            raise OSError(ctypes.get_errno(), 'mmap')
    tried('mmap write+exec', wx)
    tried('mount (@privileged)', lambda: _check(libc.mount(b'none', b'/tmp', b'tmpfs', 0, None), libc))
    tried('setpriority (@resources)', lambda: _check(libc.setpriority(0, 0, 19), libc))
    sys.stdout.flush()


def _check(rc, libc):
    if rc != 0:
        raise OSError(ctypes.get_errno(), 'call')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('unit')
    ap.add_argument('--program', help='run this instead of the program ExecStart names (its arguments stay)')
    ap.add_argument('--bind', action='append', default=[], help='HOSTDIR:UNITDIR, for ReadWritePaths/BindPaths')
    ap.add_argument('--probe', action='store_true')
    ap.add_argument('--inside', action='store_true', help=argparse.SUPPRESS)
    args = ap.parse_args()
    unit = service_section(args.unit)
    argv = shlex.split(last(unit, 'ExecStart'))
    if args.program:
        argv[0] = args.program
    if args.inside:
        restrict_here(unit)
        if args.probe:
            probe()
            return 0
        os.execv(argv[0], argv)
    binds = [tuple(b.split(':', 1)) for b in args.bind]
    inner = [sys.executable, os.path.abspath(__file__), args.unit, '--inside'] + (['--probe'] if args.probe else [])
    if args.program:
        inner += ['--program', args.program]
    own = [os.path.abspath(__file__), os.path.abspath(args.unit), os.path.abspath(argv[0])]
    return subprocess.run(bwrap_command(unit, binds, inner, own)).returncode


if __name__ == '__main__':
    sys.exit(main())
