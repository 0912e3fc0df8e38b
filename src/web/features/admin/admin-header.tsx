import { Download, LoaderCircle, LogOut, RefreshCw, ScanLine } from 'lucide-react';
import { Link } from 'wouter';
import { ADMIN_TEXT } from '../../../core/staff-messages.ts';
import { Button, buttonVariants } from '../../components/ui/button.tsx';
import { cn } from '../../lib/cn.ts';

export interface AdminHeaderProps {
  email: string;
  refreshing: boolean;
  onRefresh: () => void;
  exportDisabled: boolean;
  exporting: boolean;
  onExport: () => void;
  signingOut: boolean;
  onSignOut: () => void;
}

/** Title, welcome line, the door's Check-in screen and the panel's three actions (SPEC section 2). */
export function AdminHeader(props: AdminHeaderProps) {
  return (
    <header className="flex flex-col gap-5 md:flex-row md:items-end md:justify-between">
      <div className="min-w-0">
        <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">{ADMIN_TEXT.title}</h1>
        <p className="mt-1.5 break-all text-muted-foreground">
          Welcome, <span className="font-semibold text-foreground">{props.email}</span>
        </p>
      </div>
      <div className="grid grid-cols-3 gap-2 sm:flex sm:flex-wrap">
        <Link to="/check-in" className={buttonVariants({ variant: 'accent', className: 'col-span-3 px-3 sm:px-4' })}>
          <ScanLine aria-hidden="true" />
          Check-in
        </Link>
        <Button variant="outline" onClick={props.onRefresh} disabled={props.refreshing} className="px-3 sm:px-4">
          <RefreshCw className={cn(props.refreshing && 'animate-spin')} aria-hidden="true" />
          {ADMIN_TEXT.refresh}
        </Button>
        <Button onClick={props.onExport} disabled={props.exportDisabled || props.exporting} className="px-3 sm:px-4">
          {props.exporting ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Download aria-hidden="true" />}
          {ADMIN_TEXT.exportCsv}
        </Button>
        <Button variant="ghost" onClick={props.onSignOut} disabled={props.signingOut} className="px-3 sm:px-4">
          {props.signingOut ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <LogOut aria-hidden="true" />}
          {ADMIN_TEXT.signOut}
        </Button>
      </div>
    </header>
  );
}
