/** Below this magnitude `toFixed(100)` may not be exact; such a value rounds to 0 at any digits used here. */
const smallestExact = 2 ** -47;

/**
 * Python's `round(value, digits)` for a float: the exact decimal value of the binary double rounded to
 * `digits` places, an exact tie going to the even digit (CPython `float.__round__`, correctly rounded
 * through dtoa). `Math.round(x * 10) / 10` differs: it rounds the scaled double and a tie goes up,
 * so 56/57 in percent is 98.3 there and 98.2 in AppWorld's reports.
 */
export function pythonRound(value: number, digits: number): number {
  if (!Number.isFinite(value) || !Number.isInteger(digits) || digits < 0 || digits > 50) return value;
  const magnitude = Math.abs(value);
  if (magnitude < smallestExact) return value < 0 ? -0 : 0;
  if (magnitude >= 1e21) return value;
  const exact = magnitude.toFixed(100);
  const [whole = "0", fraction = ""] = exact.split(".");
  const kept = fraction.slice(0, digits);
  const rest = fraction.slice(digits);
  let scaled = BigInt(`${whole}${kept}`);
  const first = rest.charAt(0);
  const beyondHalf = /[1-9]/.test(rest.slice(1));
  const roundUp = first > "5" || (first === "5" && (beyondHalf || scaled % 2n === 1n));
  if (roundUp) scaled += 1n;
  const text = scaled.toString().padStart(digits + 1, "0");
  const decimal = digits === 0 ? text : `${text.slice(0, -digits)}.${text.slice(-digits)}`;
  const rounded = Number(decimal);
  return value < 0 ? -rounded : rounded;
}
