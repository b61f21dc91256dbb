/**
 * The labelled search box of a studio list or picker: the label wraps the input, so it needs no
 * id; the caller says what a change of the text does (filter, go back to the first page).
 */
export function SearchField({
  label,
  value,
  placeholder,
  onChange,
  className,
}: {
  label: string;
  value: string;
  placeholder?: string;
  onChange: (value: string) => void;
  className?: string;
}) {
  return (
    <label className={className ? `studio-field ${className}` : 'studio-field'}>
      <span className="studio-field__label">{label}</span>
      <input
        type="search"
        className="studio-input"
        value={value}
        placeholder={placeholder}
        onChange={(event) => onChange(event.target.value)}
      />
    </label>
  );
}
