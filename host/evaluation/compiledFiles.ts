// Code the detectors cannot read: byte-code, native extensions and prebuilt binaries. A `.pyc`
// whose header matches its source's size and time is run instead of the source; an `.so`,
// `.node` or ELF program runs whatever it holds. Such a file the task did not ship is left out
// of the verifier (the task's copy put back where it had one): a solution is source, and
// every build the tests need runs again from source at grading.

/** Names of byte-code and native-code files, whatever their content. */
const COMPILED_NAME = /\.(?:pyc|pyo|pyd|so|so\.\d[\w.]*|dylib|dll|exe|node|o|obj|a|lib|rlib|rmeta|class|jar|war|ear|wasm)$/i;

/** Leading bytes of executables and libraries: ELF, Mach-O (both byte orders, 32/64-bit, fat), PE, Java class. */
const MAGICS: readonly Buffer[] = [
  Buffer.from([0x7f, 0x45, 0x4c, 0x46]),
  Buffer.from([0xfe, 0xed, 0xfa, 0xce]), Buffer.from([0xfe, 0xed, 0xfa, 0xcf]),
  Buffer.from([0xce, 0xfa, 0xed, 0xfe]), Buffer.from([0xcf, 0xfa, 0xed, 0xfe]),
  Buffer.from([0xca, 0xfe, 0xba, 0xbe]), Buffer.from([0xbe, 0xba, 0xfe, 0xca]),
  Buffer.from('\0asm'),
];

/** Whether a workspace file is byte-code or native code, by its name or its first bytes. */
export function isCompiled(path: string, content: Buffer | undefined): boolean {
  if (COMPILED_NAME.test(path)) return true;
  if (!content || content.length < 4) return false;
  if (MAGICS.some((m) => content.subarray(0, m.length).equals(m))) return true;
  // PE: "MZ" and, at the offset it names, "PE\0\0" (a text file may well start with "MZ").
  if (content[0] === 0x4d && content[1] === 0x5a && content.length >= 0x40) {
    const at = content.readUInt32LE(0x3c);
    return at + 4 <= content.length && content.subarray(at, at + 4).equals(Buffer.from('PE\0\0'));
  }
  return false;
}
