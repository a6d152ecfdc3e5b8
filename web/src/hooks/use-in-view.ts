import { type RefObject, useEffect, useState } from 'react';

/**
 * Whether the element has come near the viewport (once true, stays true): what loads a picture only
 * when its bubble scrolls into sight. Without IntersectionObserver (old browsers, jsdom) it is in view.
 */
export function useInView(ref: RefObject<Element | null>, rootMargin = '200px'): boolean {
  const [inView, setInView] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (inView || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setInView(true);
      },
      { rootMargin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, rootMargin, inView]);
  return inView;
}
