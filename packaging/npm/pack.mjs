#!/usr/bin/env node
// Packs the npm packages of lifesciences-mcp with `npm pack`, on any machine with Node 18+:
//
//   node packaging/npm/pack.mjs launcher --version 0.1.0 --out DIR
//   node packaging/npm/pack.mjs platform linux-x64 path/to/lifesciences-mcp --version 0.1.0 --out DIR
//
// `launcher` packs `lifesciences-mcp` (packaging/npm/lifesciences-mcp/) with its version and
// those of its optional dependencies set to --version. `platform <os>-<cpu> <binary>` packs
// `@lifesciences-mcp/<os>-<cpu>` around a gateway binary built for that platform, with
// the `os`, `cpu` (and, on Linux, `libc`) fields that make npm install it only there; the
// binary is checked to be one for that platform first. Platforms are the launcher's
// optional dependencies. Prints the tarball's path. `cargo xtask dist` runs both for the
// machine it runs on; the release workflow runs `platform` once per binary.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const launcherDir = path.join(here, 'lifesciences-mcp');
const licences = ['LICENSE-MIT', 'LICENSE-APACHE'];
const scope = '@lifesciences-mcp/';

function usage(message) {
  process.stderr.write(
    `pack.mjs: ${message}\n` +
      'usage: node packaging/npm/pack.mjs launcher --version V --out DIR\n' +
      '       node packaging/npm/pack.mjs platform <os>-<cpu> <binary> --version V --out DIR\n',
  );
  process.exit(2);
}

function parse(argv) {
  const positional = [];
  const options = {};
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--version' || arg === '--out') {
      if (i + 1 >= argv.length) usage(`${arg} needs a value`);
      options[arg.slice(2)] = argv[i + 1];
      i += 1;
    } else if (arg.startsWith('--')) {
      usage(`unknown option ${arg}`);
    } else {
      positional.push(arg);
    }
  }
  if (!options.version || !/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(options.version)) {
    usage('--version must be the crate version, e.g. 0.1.0');
  }
  if (!options.out) usage('--out DIR is required');
  return { positional, ...options };
}

const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));

/**
 * What a binary's headers say it is: { platform, cpu, libc }. cpu is null where not read
 * (Windows); libc, on Linux, is 'glibc' or 'musl' for a dynamically linked binary (its
 * program interpreter) and null for a static one, which runs on either.
 */
function binaryPlatform(file) {
  const bytes = fs.readFileSync(file);
  if (bytes.length >= 64 && bytes.readUInt32BE(0) === 0x7f454c46) {
    // ELF64, little-endian on both our Linux targets: e_machine, then the program headers,
    // among which PT_INTERP (3) names the dynamic loader.
    const machine = bytes.readUInt16LE(18);
    const cpu = { 0x3e: 'x64', 0xb7: 'arm64' }[machine] ?? `ELF machine ${machine}`;
    const phoff = Number(bytes.readBigUInt64LE(32));
    const phentsize = bytes.readUInt16LE(54);
    const phnum = bytes.readUInt16LE(56);
    let libc = null;
    for (let i = 0; i < phnum; i += 1) {
      const header = phoff + i * phentsize;
      if (bytes.readUInt32LE(header) === 3) {
        const offset = Number(bytes.readBigUInt64LE(header + 8));
        const size = Number(bytes.readBigUInt64LE(header + 32));
        const interpreter = bytes.toString('latin1', offset, offset + size);
        libc = interpreter.includes('musl') ? 'musl' : 'glibc';
      }
    }
    return { platform: 'linux', cpu, libc };
  }
  if (bytes.length >= 8 && bytes.readUInt32LE(0) === 0xfeedfacf) {
    const cputype = bytes.readUInt32LE(4);
    const cpu = { 0x01000007: 'x64', 0x0100000c: 'arm64' }[cputype] ?? `Mach-O cpu ${cputype}`;
    return { platform: 'darwin', cpu, libc: null };
  }
  if (bytes.length >= 4 && bytes.readUInt32BE(0) === 0xcafebabe) {
    return { platform: 'darwin', cpu: 'universal', libc: null };
  }
  if (bytes.toString('latin1', 0, 2) === 'MZ') return { platform: 'win32', cpu: null, libc: null };
  return { platform: 'unknown', cpu: null, libc: null };
}

function npmPack(dir, out) {
  fs.mkdirSync(out, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const json = execFileSync(npm, ['pack', '--json', '--pack-destination', path.resolve(out)], {
    cwd: dir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    shell: process.platform === 'win32',
  });
  const [packed] = JSON.parse(json);
  return path.resolve(out, packed.filename);
}

function copyLicences(dir) {
  for (const file of licences) fs.copyFileSync(path.join(root, file), path.join(dir, file));
}

function stageLauncher(dir, version) {
  const pkg = readJson(path.join(launcherDir, 'package.json'));
  pkg.version = version;
  for (const name of Object.keys(pkg.optionalDependencies)) pkg.optionalDependencies[name] = version;
  fs.cpSync(path.join(launcherDir, 'bin'), path.join(dir, 'bin'), { recursive: true });
  fs.chmodSync(path.join(dir, 'bin', 'lifesciences-mcp.js'), 0o755);
  fs.copyFileSync(path.join(launcherDir, 'README.md'), path.join(dir, 'README.md'));
  copyLicences(dir);
  fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
}

function stagePlatform(dir, version, target, binary) {
  const launcher = readJson(path.join(launcherDir, 'package.json'));
  const name = `${scope}${target}`;
  if (!Object.prototype.hasOwnProperty.call(launcher.optionalDependencies, name)) {
    usage(`${target} is not a platform of the launcher (${Object.keys(launcher.optionalDependencies).join(', ')})`);
  }
  const [platform, cpu] = target.split('-');
  if (!fs.existsSync(binary) || fs.statSync(binary).size === 0) usage(`no binary at ${binary}`);
  const built = binaryPlatform(binary);
  if (built.platform !== platform || (built.cpu !== null && built.cpu !== 'universal' && built.cpu !== cpu)) {
    usage(`${binary} is a binary for ${built.platform} ${built.cpu ?? ''}, not for ${target}`);
  }
  const executable = platform === 'win32' ? 'lifesciences-mcp.exe' : 'lifesciences-mcp';
  fs.mkdirSync(path.join(dir, 'bin'));
  fs.copyFileSync(binary, path.join(dir, 'bin', executable));
  fs.chmodSync(path.join(dir, 'bin', executable), 0o755);
  copyLicences(dir);
  const pkg = {
    name,
    version,
    description: `The lifesciences-mcp server binary for ${target}, started by the lifesciences-mcp package`,
    license: launcher.license,
    author: launcher.author,
    homepage: launcher.homepage,
    repository: { ...launcher.repository, directory: 'packaging/npm' },
    os: [platform],
    cpu: [cpu],
    // A dynamically linked Linux binary runs only on its C library: npm 9.4+ then skips
    // the package elsewhere (a glibc build on Alpine), and the launcher says what is
    // missing instead of failing to start it. A static (musl) build runs on any Linux.
    ...(built.libc ? { libc: [built.libc] } : {}),
    files: ['bin/', ...licences],
    // Yarn Plug'n'Play must unpack it to run the binary.
    preferUnplugged: true,
  };
  fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  fs.writeFileSync(
    path.join(dir, 'README.md'),
    `# ${name}\n\nThe [lifesciences-mcp](https://www.npmjs.com/package/lifesciences-mcp) MCP server's ` +
      `binary for ${target}. Install \`lifesciences-mcp\`, not this package: it picks the binary ` +
      `for your platform.\n`,
  );
}

const args = parse(process.argv.slice(2));
const [kind, target, binary] = args.positional;
const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'lifesciences-mcp-npm-'));
try {
  if (kind === 'launcher' && args.positional.length === 1) {
    stageLauncher(staging, args.version);
  } else if (kind === 'platform' && args.positional.length === 3) {
    stagePlatform(staging, args.version, target, path.resolve(binary));
  } else {
    usage('say what to pack: `launcher`, or `platform <os>-<cpu> <binary>`');
  }
  process.stdout.write(`${npmPack(staging, args.out)}\n`);
} finally {
  fs.rmSync(staging, { recursive: true, force: true });
}
