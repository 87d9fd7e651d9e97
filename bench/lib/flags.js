// Command-line flags of the benches: `--name value` pairs, numbers positive, unknown flags refused.

/** `--ready-timeout` → `readyTimeout`. */
const keyOf = (flag) => flag.slice(2).replace(/-([a-z])/g, (_, letter) => letter.toUpperCase());
const flagOf = (key) => `--${key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;

/**
 * Reads `argv` over `defaults`: a flag is known when its camel-cased key is in `defaults`; it is a
 * number when that default is a number (and must then be positive), else text.
 */
function parseFlags(argv, defaults) {
  const options = { ...defaults };
  const known = Object.keys(defaults).map(flagOf).join(' ');
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    const key = keyOf(flag ?? '');
    const numeric = typeof defaults[key] === 'number';
    if (!flag?.startsWith('--') || !(key in defaults) || !value)
      throw new Error(`bad flag ${flag} ${value ?? ''} (flags: ${known})`);
    if (numeric && !(Number(value) > 0)) throw new Error(`${flag} must be a positive number (got ${value})`);
    options[key] = numeric ? Number(value) : value;
  }
  return options;
}

module.exports = { parseFlags };
