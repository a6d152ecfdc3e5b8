export function Logo({ className }: { className?: string }) {
  return (
    <span className={className ?? 'inline-flex items-center gap-2 text-lg font-bold text-fg'}>
      <svg aria-hidden="true" viewBox="0 0 32 32" className="size-7">
        <rect width="32" height="32" rx="8" fill="var(--primary)" />
        <path d="M9 11h14M9 16h10M9 21h6" stroke="var(--primary-fg)" strokeWidth="2.5" strokeLinecap="round" />
      </svg>
      Switchboard
    </span>
  );
}
