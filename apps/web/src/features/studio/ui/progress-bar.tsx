/** Progress of long work (an upload, an import), 0 to 1, with its label read out to screen readers. */
export function ProgressBar({ value, label }: { value: number; label: string }) {
  const percent = Math.round(Math.min(1, Math.max(0, value)) * 100);
  return (
    <div className="studio-progress">
      <progress max={100} value={percent} aria-label={label} />
      <span className="studio-progress__value" aria-hidden="true">
        {percent} %
      </span>
    </div>
  );
}
