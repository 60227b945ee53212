/** Parameters a GET form carries along unchanged. */
export function HiddenFields({ params }: { params: [string, string][] }) {
  return params.map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />);
}
