import { Link, type LinkProps } from 'react-router';
import { cn } from '@/lib/cn';

export function TextLink({ className, ...rest }: LinkProps) {
  return <Link className={cn('font-semibold text-primary underline-offset-4 hover:underline', className)} {...rest} />;
}
