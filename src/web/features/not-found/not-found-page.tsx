import { House } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useLocation } from 'wouter';
import { buttonVariants } from '../../components/ui/button.tsx';

/** Any path the app does not have. The server answers it with status 404 and logs it too. */
export function NotFoundPage() {
  const [pathname] = useLocation();

  useEffect(() => {
    console.error('404 Error: User attempted to access non-existent route:', pathname);
  }, [pathname]);

  return (
    <section
      aria-labelledby="not-found-title"
      className="flex flex-1 flex-col items-center justify-center bg-muted/50 px-4 py-24 text-center"
    >
      <p className="bg-linear-to-br from-primary to-fuchsia-500 bg-clip-text text-8xl font-black tracking-tighter text-transparent sm:text-9xl">
        404
      </p>
      <h1 id="not-found-title" className="mt-4 text-2xl font-bold tracking-tight sm:text-3xl">
        Oops! Page not found
      </h1>
      <p className="mt-3 max-w-sm text-muted-foreground">The page you are looking for does not exist or has moved.</p>
      <Link to="/" className={buttonVariants({ size: 'lg', className: 'mt-8' })}>
        <House aria-hidden="true" />
        Return to Home
      </Link>
    </section>
  );
}
